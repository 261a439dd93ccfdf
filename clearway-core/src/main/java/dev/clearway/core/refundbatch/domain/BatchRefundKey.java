package dev.clearway.core.refundbatch.domain;

import dev.clearway.core.refund.domain.NewRefund;

/**
 * The after-sales refund a batch asks for one payment, identified by the payment alone: requested
 * by the payment's merchant under the key {@code refund-batch-{flowId}}, for the whole amount, with
 * a fixed reason. Every batch that ever covers this payment (a restarted runner, a repeated batch
 * for the same scene) asks with the same key and parameters, so the refund engine returns the one
 * refund order it created the first time, with its one refund number: nothing is refunded twice.
 */
public final class BatchRefundKey {
  /** The reason of every batch refund order. */
  public static final String REASON = "BATCH_REFUND";

  private BatchRefundKey() {}

  public static String key(long flowId) {
    return "refund-batch-" + flowId;
  }

  public static NewRefund request(String merchant, BatchItem item) {
    return new NewRefund(item.flowId(), item.amount(), REASON, merchant, key(item.flowId()));
  }
}
