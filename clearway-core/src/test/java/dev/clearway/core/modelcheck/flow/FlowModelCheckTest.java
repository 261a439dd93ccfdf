package dev.clearway.core.modelcheck.flow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.modelcheck.Explorer.Report;
import dev.clearway.core.modelcheck.Explorer.Step;
import dev.clearway.core.modelcheck.ModelChecks;
import dev.clearway.core.modelcheck.memory.Fencing;
import dev.clearway.core.modelcheck.memory.LeaseRule;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Exhaustive, bounded exploration of the flow state machine driving the real advancer (see
 * ARCHITECTURE.md, "The model checker"). Depths are chosen so that the whole check stays within
 * seconds; {@code -Dmodelcheck.extraDepth=N} goes deeper.
 */
class FlowModelCheckTest {

  private static FlowModel model(FlowStage stage, Fencing fencing, int workers, LeaseRule rule) {
    return new FlowModel(new FlowModel.Setup(stage, fencing, workers, rule, 1));
  }

  /**
   * Today's store: a transition checks (id, status, version) only. The payment request's worker
   * waits, its creation lease expires, the scanner claims the flow, and the creator still moves it.
   */
  @Test
  void findsTheLeaseBugOfTodaysStore() {
    Report report =
        ModelChecks.explore(
            model(FlowStage.NEW_PAYMENT, Fencing.NONE, 2, LeaseRule.EVERY_WRITE), 6);

    assertThat(report.violation()).isNotNull();
    assertThat(report.violation().problems())
        .containsExactly(
            "write without the lease: W1#1 did transition WAIT_PAY->PAYING on a row held by W2#1/1");
    List<Step> trace = report.violation().trace();
    assertThat(trace).hasSize(4);
    assertThat(trace.get(2).label()).isEqualTo("W2#1 [scanner] FlowStore.claimDue => [1]");
  }

  /**
   * The same defect in the business stage: after the deadline a worker decides REFUNDING, stalls, a
   * scanner takes the flow over, and the stale worker's refund decision is still written.
   */
  @Test
  void findsAStaleRefundDecisionAfterTakeover() {
    Report report =
        ModelChecks.explore(
            model(FlowStage.PAST_DEADLINE, Fencing.NONE, 2, LeaseRule.EVERY_WRITE), 8);

    assertThat(report.violation()).isNotNull();
    assertThat(report.violation().problems())
        .containsExactly(
            "write without the lease: W1#1 did transition PAYED->REFUNDING on a row held by"
                + " W2#1/1");
  }

  /**
   * Every interleaving of two workers, a client's cancel and a person's command, with every answer
   * of the wallet and the business, from each stage: the money, machine and progress rules hold,
   * and no worker writes without its lease, given a store that fences every write whose port
   * carries the writer's token.
   */
  @Test
  void provesTheFlowMachineWithFencedWrites() {
    int[] depths = {10, 8, 10, 9};
    FlowStage[] stages = {
      FlowStage.NEW_PAYMENT, FlowStage.PAYMENT_UNKNOWN, FlowStage.CHARGED, FlowStage.REFUNDING
    };
    for (int i = 0; i < stages.length; i++) {
      ModelChecks.assertHolds(
          ModelChecks.explore(
              model(stages[i], Fencing.LEASE, 2, LeaseRule.CARRIED_WRITES), depths[i]));
    }
  }

  /**
   * The money, machine and progress rules on today's store, without the lease rule: they hold there
   * too (the version compare-and-set and the re-read facts carry them). Run with {@code
   * -Dmodelcheck.all=true}.
   */
  @Test
  @EnabledIfSystemProperty(named = "modelcheck.all", matches = "true")
  void moneyHoldsOnTodaysStore() {
    int[] depths = {10, 8, 10, 9};
    FlowStage[] stages = {
      FlowStage.NEW_PAYMENT, FlowStage.PAYMENT_UNKNOWN, FlowStage.CHARGED, FlowStage.REFUNDING
    };
    for (int i = 0; i < stages.length; i++) {
      ModelChecks.assertHolds(
          ModelChecks.explore(model(stages[i], Fencing.NONE, 2, LeaseRule.OFF), depths[i]));
    }
  }

  /** Three workers racing for a charged flow (before and after the deadline). */
  @Test
  void provesTheBusinessStageWithThreeWorkers() {
    ModelChecks.assertHolds(
        ModelChecks.explore(
            model(FlowStage.CHARGED, Fencing.LEASE, 3, LeaseRule.CARRIED_WRITES), 8));
  }
}
