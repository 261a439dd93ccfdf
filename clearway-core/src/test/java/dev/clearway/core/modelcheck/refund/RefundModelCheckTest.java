package dev.clearway.core.modelcheck.refund;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.modelcheck.Explorer.Report;
import dev.clearway.core.modelcheck.ModelChecks;
import dev.clearway.core.modelcheck.memory.Fencing;
import dev.clearway.core.modelcheck.memory.LeaseRule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/** Exhaustive, bounded exploration of the refund-order machine driving the real refund code. */
class RefundModelCheckTest {

  private static RefundModel model(RefundStage stage, Fencing fencing, LeaseRule rule) {
    return new RefundModel(new RefundModel.Setup(stage, fencing, 2, rule, true));
  }

  /**
   * The old SQL semantics (a refund transition checks id, status and version only): a worker that
   * learned the refund succeeded stalls, another takes the refund over, and the stale worker still
   * writes.
   */
  @Test
  void findsTheLeaseBugOfTheOldSql() {
    Report report =
        ModelChecks.explore(model(RefundStage.SENT, Fencing.NONE, LeaseRule.EVERY_WRITE), 8);

    assertThat(report.violation()).isNotNull();
    assertThat(report.violation().problems())
        .containsExactly(
            "write without the lease: W1#1 did transition PROCESSING->SUCCESS on a row held by"
                + " W2#1/0/1");
    assertThat(report.violation().trace()).hasSize(6);
  }

  /**
   * Every interleaving of two workers and a competing second request, with every wallet answer: one
   * refund per number, SUCCESS only when refunded, FAIL and CLOSED only when not, never more
   * refunded than charged, legal edges, no write without the lease (fenced store), no dead end.
   */
  @Test
  void provesTheRefundMachineWithFencedWrites() {
    RefundStage[] stages = {RefundStage.NEW_REFUND, RefundStage.SENT, RefundStage.ABNORMAL};
    int[] depths = {11, 10, 10};
    for (int i = 0; i < stages.length; i++) {
      ModelChecks.assertHolds(
          ModelChecks.explore(model(stages[i], Fencing.LEASE, LeaseRule.EVERY_WRITE), depths[i]));
    }
  }

  /** The money and machine rules on the old SQL semantics, without the lease rule. */
  @Test
  @EnabledIfSystemProperty(named = "modelcheck.all", matches = "true")
  void moneyHoldsOnTheOldSql() {
    RefundStage[] stages = {RefundStage.NEW_REFUND, RefundStage.SENT, RefundStage.ABNORMAL};
    int[] depths = {11, 10, 10};
    for (int i = 0; i < stages.length; i++) {
      ModelChecks.assertHolds(
          ModelChecks.explore(model(stages[i], Fencing.NONE, LeaseRule.OFF), depths[i]));
    }
  }
}
