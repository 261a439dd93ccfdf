package dev.clearway.core.refund.port;

import dev.clearway.core.refund.domain.RefundStatus;

/**
 * What the refund engine reports as it works; metrics implement it. Every method has a no-op
 * default so that an implementation overrides only what it counts.
 */
public interface RefundEvents {

  default void created(long refundId, long amount) {}

  default void transitioned(RefundStatus from, RefundStatus to) {}

  /** A CAS updated 0 rows. {@code outcome} is IDEMPOTENT or CONTRADICTION. */
  default void casConflict(RefundStatus intended, RefundStatus found, String outcome) {}

  /** kind: AFTER_SALE_REFUND, AFTER_SALE_REFUND_QUERY. */
  default void externalCall(String kind, String resultClass) {}

  default void rescheduled(RefundStatus status, String errorCode) {}

  /** The retry budget was spent: the refund is ABNORMAL and a person must look. */
  default void abnormal(long refundId, String errorCode) {}

  default void scannerRound(int hits, long elapsedMillis) {}

  /**
   * A worker's write was refused because the worker no longer holds the refund's lease: nothing was
   * written. {@code table} names the leased table ({@code refund_order}).
   */
  default void leaseLost(String table) {}

  RefundEvents NONE = new RefundEvents() {};
}
