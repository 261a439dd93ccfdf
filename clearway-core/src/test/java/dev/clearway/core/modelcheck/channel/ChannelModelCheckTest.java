package dev.clearway.core.modelcheck.channel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.modelcheck.Explorer.Report;
import dev.clearway.core.modelcheck.ModelChecks;
import dev.clearway.core.modelcheck.memory.Fencing;
import dev.clearway.core.modelcheck.memory.LeaseRule;
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
   * Today's store: the record of an observation compares the attempt's version only. A recovery
   * worker whose task lease expired and was taken over still records into the attempt and moves the
   * task another worker holds.
   */
  @Test
  void findsTheLeaseBugOfTodaysStore() {
    Report report =
        ModelChecks.explore(model(ChannelStage.UNKNOWN, Fencing.NONE, LeaseRule.EVERY_WRITE), 9);

    assertThat(report.violation()).isNotNull();
    assertThat(report.violation().problems())
        .containsExactly("write without the lease: W1#1 did record on a row held by W2#1/1");
    assertThat(report.violation().trace()).hasSize(7);
  }

  /**
   * The create's response path (an observer without a lease) reschedules a task a recovery worker
   * holds, which clears that worker's lease; the worker then records without it.
   */
  @Test
  void findsTheResponsePathClearingARecoveryLease() {
    Report report =
        ModelChecks.explore(
            model(ChannelStage.NEW_ATTEMPT, Fencing.NONE, LeaseRule.EVERY_WRITE), 9);

    assertThat(report.violation()).isNotNull();
    assertThat(report.violation().problems())
        .containsExactly("write without the lease: W1#1 did record on a row held by nobody");
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
          ModelChecks.explore(
              model(stages[i], Fencing.LEASE, LeaseRule.CARRIED_WRITES), depths[i]));
    }
  }

  /** The attempt rules on today's store, without the lease rule. */
  @Test
  @EnabledIfSystemProperty(named = "modelcheck.all", matches = "true")
  void attemptRulesHoldOnTodaysStore() {
    ChannelStage[] stages = {ChannelStage.NEW_ATTEMPT, ChannelStage.UNKNOWN, ChannelStage.PENDING};
    int[] depths = {8, 10, 10};
    for (int i = 0; i < stages.length; i++) {
      ModelChecks.assertHolds(
          ModelChecks.explore(model(stages[i], Fencing.NONE, LeaseRule.OFF), depths[i]));
    }
  }
}
