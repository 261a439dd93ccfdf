package dev.clearway.core.modelcheck.latecharge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.modelcheck.Explorer.Report;
import dev.clearway.core.modelcheck.ModelChecks;
import dev.clearway.core.modelcheck.memory.Fencing;
import dev.clearway.core.modelcheck.memory.LeaseRule;
import org.junit.jupiter.api.Test;

/**
 * Exhaustive, bounded exploration of the late-charge machine driving the real checker, refund
 * service and refund advancer.
 */
class LateChargeModelCheckTest {

  private static LateChargeModel model(LateChargeStage stage, Fencing fencing, LeaseRule rule) {
    return new LateChargeModel(new LateChargeModel.Setup(stage, fencing, 2, rule));
  }

  /**
   * Without the lease fence (transitions fenced by id, status and version only), a worker that
   * learned of the charge, stalled past its lease and was taken over still writes its decision.
   */
  @Test
  void findsAStaleDecisionWithoutTheFence() {
    Report report =
        ModelChecks.explore(
            model(LateChargeStage.SUSPECTED, Fencing.NONE, LeaseRule.EVERY_WRITE), 8);

    assertThat(report.violation()).isNotNull();
    assertThat(report.violation().problems()).hasSize(1);
    assertThat(report.violation().problems().get(0)).startsWith("write without the lease: W1#1");
  }

  /**
   * Every interleaving of two workers (late-charge scanner rounds, wake-ups, refund scanner rounds)
   * with every wallet answer, a charge landing late and refunds settling: only the wallet's answer
   * decides, one LATE_CHARGE refund per flow, each refunded at most once, no write without the
   * lease, and a check that has not ended is always due again.
   */
  @Test
  void provesTheLateChargeMachine() {
    LateChargeStage[] stages = {LateChargeStage.SUSPECTED, LateChargeStage.CONFIRMED};
    int[] depths = {12, 10};
    for (int i = 0; i < stages.length; i++) {
      ModelChecks.assertHolds(
          ModelChecks.explore(model(stages[i], Fencing.LEASE, LeaseRule.EVERY_WRITE), depths[i]));
    }
  }
}
