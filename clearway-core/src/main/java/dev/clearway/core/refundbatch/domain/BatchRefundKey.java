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

  /**
   * The prefix of every batch key. Merchants share the refund key namespace with batches, so a
   * merchant's own refund request may not use a key that starts with it (the API refuses it).
   */
  public static final String PREFIX = "refund-batch-";

  public static String key(long flowId) {
    return PREFIX + flowId;
  }

  /** True when {@code key} is in the batches' part of the namespace: a merchant may not use it. */
  public static boolean isReserved(String key) {
    return key != null && key.regionMatches(true, 0, PREFIX, 0, PREFIX.length());
  }

  public static NewRefund request(String merchant, BatchItem item) {
    return new NewRefund(item.flowId(), item.amount(), REASON, merchant, key(item.flowId()));
  }
}
