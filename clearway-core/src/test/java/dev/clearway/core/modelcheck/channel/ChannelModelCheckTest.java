package dev.clearway.core.modelcheck.channel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.RecoveryTask;
import dev.clearway.core.channel.domain.RecoveryTask.TaskStatus;
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
 * Exhaustive, bounded exploration of the attempt / recovery-task machine driving the real create
 * response path, recovery worker, recorder and webhook intake.
 */
class ChannelModelCheckTest {

  private static ChannelModel model(ChannelStage stage, Fencing fencing, LeaseRule rule) {
    return new ChannelModel(new ChannelModel.Setup(stage, fencing, 2, rule));
  }

  /**
   * The old SQL semantics (the record of an observation compares the attempt's version only): a
   * recovery worker whose task lease expired and was taken over still records into the attempt and
   * moves the task another worker holds.
   */
  @Test
  void findsTheLeaseBugOfTheOldSql() {
    Report report =
        ModelChecks.explore(model(ChannelStage.UNKNOWN, Fencing.NONE, LeaseRule.EVERY_WRITE), 9);

    assertThat(report.violation()).isNotNull();
    assertThat(report.violation().problems())
        .containsExactly("write without the lease: W1#1 did record on a row held by W2#1/0/1");
    assertThat(report.violation().trace()).hasSize(7);
  }

  /**
   * The old SQL semantics: the create's answer, recorded after its grace ran out and a recovery
   * worker took the task over, still moves the attempt and resolves (or reschedules) the task the
   * worker holds, clearing its lease.
   */
  @Test
  void findsTheResponsePathClearingARecoveryLease() {
    Report report =
        ModelChecks.explore(
            model(ChannelStage.NEW_ATTEMPT, Fencing.NONE, LeaseRule.EVERY_WRITE), 9);

    assertThat(report.violation()).isNotNull();
    assertThat(report.violation().problems())
        .containsExactly("write without the lease: Wpay#1 did record on a row held by W1#1/0/1");
    List<Step> trace = report.violation().trace();
    assertThat(trace).hasSize(4);
    assertThat(trace.get(3).after()).contains("task RESOLVED");
  }

  /**
   * The same race on the fenced store: the create's late answer finds the task held by the recovery
   * worker and writes nothing ({@code LEASE_LOST}); the worker's own replay then records the charge
   * under its lease.
   */
  @Test
  void theCreatesLateAnswerLeavesARecoveryWorkersLeaseAlone() {
    Walk.Path<ChannelModelState> path =
        Walk.follow(
            model(ChannelStage.NEW_ATTEMPT, Fencing.LEASE, LeaseRule.EVERY_WRITE),
            "Wpay#1 [create response] PspAdapter.create (charged)",
            "clock -> +10.001s",
            "W1#1 [recovery round] RecoveryTaskStore.claimDue",
            "Wpay#1 [create response] AttemptStore.record => LEASE_LOST");

    assertThat(path.broken()).isEmpty();
    RecoveryTask held = path.last().store().task();
    assertThat(held.status()).isEqualTo(TaskStatus.LEASED);
    assertThat(held.leaseOwner()).isEqualTo("W1#1/0/1");
    assertThat(path.last().store().attempt().status()).isEqualTo(AttemptStatus.CREATED);

    Walk.Path<ChannelModelState> on =
        Walk.follow(
            model(ChannelStage.NEW_ATTEMPT, Fencing.LEASE, LeaseRule.EVERY_WRITE),
            "Wpay#1 [create response] PspAdapter.create (charged)",
            "clock -> +10.001s",
            "W1#1 [recovery round] RecoveryTaskStore.claimDue",
            "Wpay#1 [create response] AttemptStore.record => LEASE_LOST",
            "Wpay#1 [create response] AttemptStore.attempt",
            "W1#1 [recovery round] AttemptStore.attempt",
            "W1#1 [recovery round] PaymentOrderStore.order",
            "W1#1 [recovery round] PspAdapter.create (answers)",
            "W1#1 [recovery round] AttemptStore.record => RECORDED");
    assertThat(on.broken()).isEmpty();
    assertThat(on.last().store().attempt().status()).isEqualTo(AttemptStatus.SUCCEEDED);
    assertThat(on.last().store().task().status()).isEqualTo(TaskStatus.RESOLVED);
    assertThat(on.last().store().finalisations()).isEqualTo(1);
  }

  /**
   * Every interleaving of the response path, two recovery workers and duplicated webhooks, with
   * every PSP answer and the customer paying late or never: a final attempt never moves and is made
   * final once, SUCCEEDED only with a charge, a compensation only for a charge, a task resolved
   * only with its attempt, every open attempt keeps a task or a person.
   */
  @Test
  void provesTheAttemptMachine() {
    ChannelStage[] stages = {ChannelStage.NEW_ATTEMPT, ChannelStage.UNKNOWN, ChannelStage.PENDING};
    int[] depths = {8, 10, 10};
    for (int i = 0; i < stages.length; i++) {
      ModelChecks.assertHolds(
          ModelChecks.explore(model(stages[i], Fencing.LEASE, LeaseRule.EVERY_WRITE), depths[i]));
    }
  }

  /** The attempt rules on the old SQL semantics, without the lease rule. */
  @Test
  @EnabledIfSystemProperty(named = "modelcheck.all", matches = "true")
  void attemptRulesHoldOnTheOldSql() {
    ChannelStage[] stages = {ChannelStage.NEW_ATTEMPT, ChannelStage.UNKNOWN, ChannelStage.PENDING};
    int[] depths = {8, 10, 10};
    for (int i = 0; i < stages.length; i++) {
      ModelChecks.assertHolds(
          ModelChecks.explore(model(stages[i], Fencing.NONE, LeaseRule.OFF), depths[i]));
    }
  }
}
