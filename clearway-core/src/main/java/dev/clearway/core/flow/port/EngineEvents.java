package dev.clearway.core.flow.port;

import dev.clearway.core.flow.domain.FlowStatus;
import java.time.Duration;

/**
 * What the engine reports as it works; metrics and progress displays implement it. Every method has
 * a no-op default so that an implementation overrides only what it counts.
 */
public interface EngineEvents {

  default void transitioned(FlowStatus from, FlowStatus to) {}

  /**
   * A transition with the time the flow spent in {@code from} (since it entered that state: {@code
   * updated_at} moves with status changes only, not with reschedules or claims).
   */
  default void transitioned(FlowStatus from, FlowStatus to, Duration dwell) {
    transitioned(from, to);
  }

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

  /**
   * A worker's write was refused because the worker no longer holds the row's lease (it expired and
   * another worker claimed the row, or a person's command released it): nothing was written. {@code
   * table} names the leased table ({@code pay_flow}).
   */
  default void leaseLost(String table) {}

  EngineEvents NONE = new EngineEvents() {};
}
