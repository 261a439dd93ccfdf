package dev.clearway.core.port;

import dev.clearway.core.domain.FlowStatus;

/**
 * What the engine reports as it works; metrics and progress displays implement it. Every method has
 * a no-op default so that an implementation overrides only what it counts.
 */
public interface EngineEvents {

  default void transitioned(FlowStatus from, FlowStatus to) {}

  /** A CAS updated 0 rows. {@code outcome} is IDEMPOTENT or CONTRADICTION. */
  default void casConflict(FlowStatus intended, FlowStatus found, String outcome) {}

  /** kind: PAY, PAY_QUERY, CLOSE, REFUND, REFUND_QUERY, BIZ_CALL, BIZ_FACT. */
  default void externalCall(String kind, String resultClass) {}

  default void rescheduled(FlowStatus status, String errorCode) {}

  default void escalated(long flowId, FlowStatus status, String errorCode) {}

  default void frozen(long flowId, String reason) {}

  /** The business fact showed the goal done for this order when a refund was considered. */
  default void refundBlockedByBizSuccess(long flowId) {}

  default void scannerRound(int hits, long elapsedMillis) {}

  EngineEvents NONE = new EngineEvents() {};
}
