package dev.clearway.core.refundbatch.domain;

/**
 * What became of one payment of a batch. PENDING and ORDERED are open; the others are final and
 * never change ({@code refund_batch_item_guard}).
 */
public enum ItemOutcome {
  /** Not tried yet. */
  PENDING,
  /** Its refund order exists and has not ended; the refund engine carries it out. */
  ORDERED,
  /** Its refund order, created by this batch, succeeded. */
  REFUNDED,
  /** Refunded before this batch: by an earlier batch, a merchant's refunds or a compensation. */
  ALREADY_REFUNDED,
  /** Nothing to refund any more (the payment is not refundable) or the refund order failed. */
  FAILED,
  /** A person must look: partly refunded already, key used otherwise, refund order ABNORMAL. */
  NEEDS_PERSON;

  public boolean isFinal() {
    return this != PENDING && this != ORDERED;
  }
}
