package dev.clearway.core.modelcheck.flow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.modelcheck.Explorer.Report;
import dev.clearway.core.modelcheck.Explorer.Step;
import dev.clearway.core.modelcheck.ModelChecks;
import dev.clearway.core.modelcheck.Walk;
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
   * The old SQL semantics (a transition checks id, status and version only): the payment request's
   * worker waits, its creation lease expires, the scanner claims the flow, and the creator still
   * moves it. The lease fence of the SQL refuses that write (see the proofs below).
   */
  @Test
  void findsTheLeaseBugOfTheOldSql() {
    Report report =
        ModelChecks.explore(
            model(FlowStage.NEW_PAYMENT, Fencing.NONE, 2, LeaseRule.EVERY_WRITE), 6);

    assertThat(report.violation()).isNotNull();
    // The payment request creates the flow already in PAYING, so its first write after creation
    // is PAYING to PAYED, on a row the scanner has claimed meanwhile.
    assertThat(report.violation().problems())
        .containsExactly(
            "write without the lease: W1#1 did transition PAYING->PAYED on a row held by W2#1/0/1");
    List<Step> trace = report.violation().trace();
    assertThat(trace)
        .extracting(Step::label)
        .anySatisfy(
            label ->
                assertThat(label)
                    .startsWith(
                        "W2#1 [scanner] FlowStore.claimDueRows => [#1 PAYING v1 lease=W2#1"));
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
                + " W2#1/0/1");
  }

  /**
   * Every interleaving of two workers, a client's cancel and a person's command, with every answer
   * of the wallet and the business, from each stage: the money, machine and progress rules hold,
   * and no worker writes (transition, reschedule, freeze) without its lease, on a store with the
   * fenced SQL's semantics.
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
              model(stages[i], Fencing.LEASE, 2, LeaseRule.EVERY_WRITE), depths[i]));
    }
  }

  /**
   * The money, machine and progress rules on the old SQL semantics, without the lease rule: they
   * hold there too (the version compare-and-set and the re-read facts carry them). Run with {@code
   * -Dmodelcheck.all=true}.
   */
  @Test
  @EnabledIfSystemProperty(named = "modelcheck.all", matches = "true")
  void moneyHoldsOnTheOldSql() {
    int[] depths = {10, 8, 10, 9};
    FlowStage[] stages = {
      FlowStage.NEW_PAYMENT, FlowStage.PAYMENT_UNKNOWN, FlowStage.CHARGED, FlowStage.REFUNDING
    };
    for (int i = 0; i < stages.length; i++) {
      ModelChecks.assertHolds(
          ModelChecks.explore(model(stages[i], Fencing.NONE, 2, LeaseRule.OFF), depths[i]));
    }
  }

  /**
   * A client cancels right after the payment request created its flow, already in PAYING (creation
   * and start are one write), before the request's worker sent the charge: the cancel only records
   * the request (no status change, the worker keeps its lease), so nothing is frozen and the worker
   * goes on to close the order at the wallet or refund a charge that landed anyway.
   */
  @Test
  void aCancelRacingTheCreatorFreezesNothing() {
    Walk.Path<FlowState> path =
        Walk.follow(
            model(FlowStage.NEW_PAYMENT, Fencing.LEASE, 2, LeaseRule.EVERY_WRITE),
            "W1#1 [payment request] FlowStore.createStarted",
            "client#1 [cancel] FlowStore.find",
            "client#1 [cancel] FlowStore.requestCancel");

    assertThat(path.broken()).isEmpty();
    PayFlow row = path.last().flow().orElseThrow();
    assertThat(row.status()).isEqualTo(FlowStatus.PAYING);
    assertThat(row.isCancelRequested()).isTrue();
    assertThat(row.isFrozen()).isFalse();
    assertThat(row.leaseOwner()).startsWith("W1#1");
    assertThat(row.version()).isEqualTo(1);
    assertThat(path.last().wallet().orders()).isEmpty();
  }

  /** Three workers racing for a charged flow (before and after the deadline). */
  @Test
  void provesTheBusinessStageWithThreeWorkers() {
    ModelChecks.assertHolds(
        ModelChecks.explore(model(FlowStage.CHARGED, Fencing.LEASE, 3, LeaseRule.EVERY_WRITE), 8));
  }
}
