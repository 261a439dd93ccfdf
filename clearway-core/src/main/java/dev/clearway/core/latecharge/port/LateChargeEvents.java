package dev.clearway.core.latecharge.port;

import dev.clearway.core.latecharge.domain.SuspicionSource;
import java.time.Duration;

/**
 * What the late-charge checks and the sweep report as they work; metrics implement it. Every method
 * has a no-op default so that an implementation overrides only what it counts.
 */
public interface LateChargeEvents {

  /** A suspicion was recorded; {@code created} is false when the flow already had a check. */
  default void suspected(SuspicionSource source, boolean created) {}

  /**
   * One check step ended: CHARGE_CONFIRMED, REFUND_REQUESTED, NO_CHARGE, NOT_APPLICABLE, MANUAL,
   * RETRY, LEASE_LOST.
   */
  default void checked(String outcome) {}

  /** kind: LATE_CHARGE_QUERY (a check), LATE_CHARGE_SWEEP_QUERY (the sweep). */
  default void externalCall(String kind, String resultClass) {}

  /** A write of {@code table} found its lease taken over and changed nothing. */
  default void leaseLost(String table) {}

  /** The wallet answered the sweep for an ended order at {@code stage} after it ended. */
  default void swept(Duration stage, String resultClass) {}

  /**
   * The sweep of {@code stage} fell further behind than the window: {@code flows} ended orders were
   * not checked at this stage.
   */
  default void sweepSkipped(Duration stage, long flows) {}

  /**
   * The wallet confirmed a charge on an order whose check had ended with "no charge": two answers
   * that disagree. The refund is requested anyway and a person should look.
   */
  default void contradiction(long flowId) {}

  default void scannerRound(int hits, long elapsedMillis) {}

  LateChargeEvents NONE = new LateChargeEvents() {};
}
