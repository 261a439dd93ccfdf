package dev.clearway.service.refund;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.latecharge.domain.LateChargeCheck;
import dev.clearway.core.latecharge.domain.LateChargeStatus;
import dev.clearway.core.latecharge.domain.SuspicionSource;
import dev.clearway.core.latecharge.domain.SweepSchedule;
import dev.clearway.store.testing.TestDatabase;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The sweep asks the wallet about orders that ended without payment, at a few growing ages after
 * they ended, so that a charge no callback reports is still found and refunded; its memory is in
 * the database, so a restarted process neither starts over nor skips anything.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class LateChargeSweepTest {
  private LateChargeRig rig;

  @BeforeEach
  void setUp() {
    rig = LateChargeRig.fresh();
  }

  private Duration stage(int i) {
    return LateChargeRig.SCHEDULE.stages().get(i);
  }

  @Test
  void theScheduleQueriesAtGrowingAgesWithinTheWindow() {
    SweepSchedule schedule = SweepSchedule.production(Duration.ofHours(48), 10);
    assertThat(schedule.stages())
        .containsExactly(
            Duration.ofMinutes(5),
            Duration.ofHours(1),
            Duration.ofHours(6),
            Duration.ofHours(24),
            Duration.ofHours(47));
    assertThat(SweepSchedule.production(Duration.ofHours(2), 10).stages())
        .containsExactly(Duration.ofMinutes(5), Duration.ofHours(1), Duration.ofMinutes(108));
  }

  @Test
  void aChargeWithNoCallbackOnAClosedOrderIsFoundByTheSweepAndRefunded() {
    PayFlow charged = rig.closedThenCharged();
    PayFlow clean = rig.failedAndClosedAtTheWallet();
    PayFlow paid = rig.e.paidFlow();

    assertThat(rig.sweep.runRound()).as("nothing has been ended for 5 minutes yet").isZero();
    rig.e.h.clock.advance(stage(0));

    assertThat(rig.sweep.runRound()).isEqualTo(2);
    LateChargeCheck check = rig.check(charged);
    assertThat(check.source()).isEqualTo(SuspicionSource.SWEEP);
    assertThat(check.status()).isEqualTo(LateChargeStatus.PENDING);
    assertThat(rig.checks.findByFlow(clean.id())).as("a definite no-charge").isEmpty();
    assertThat(rig.queriesOf(paid)).as("a paid flow is not the sweep's").isZero();

    assertThat(rig.scan()).isEqualTo(1);
    LateChargeCheck done = rig.check(charged);
    assertThat(done.status()).isEqualTo(LateChargeStatus.REFUND_REQUESTED);
    assertThat(rig.refunds(charged)).hasSize(1);
    assertThat(rig.refundedAtTheWallet(charged)).isEqualTo(charged.amount());
    assertThat(rig.refunds(clean)).isEmpty();
  }

  @Test
  void eachEndedOrderIsQueriedOncePerStageAndARestartedSweepContinuesWhereItStopped() {
    List<PayFlow> ended = List.of(rig.failedAndClosedAtTheWallet(), rig.failedWithPayInTransit());
    // Rounds every 20 minutes for two days, and a restart (new objects, nothing in memory) after
    // every tenth round.
    LateChargeRig current = rig;
    for (int round = 1; round <= 49 * 3; round++) {
      rig.e.h.clock.advance(Duration.ofMinutes(20));
      if (round % 10 == 0) {
        current = current.restart();
      }
      current.sweep.runRound();
    }
    for (PayFlow flow : ended) {
      assertThat(rig.queriesOf(flow))
          .as("flow %d: once per stage, never more", flow.id())
          .isEqualTo(LateChargeRig.SCHEDULE.stages().size());
    }
    assertThat(rig.count("SELECT count(*) FROM late_charge_check")).isZero();
  }

  @Test
  void aChargeThatLandsAfterAnEarlierStageFoundNothingIsFoundAtALaterStage() {
    PayFlow failed = rig.failedWithPayInTransit();
    rig.e.h.clock.advance(stage(0));
    rig.sweep.runRound();
    assertThat(rig.checks.findByFlow(failed.id())).as("no record: no charge yet").isEmpty();

    rig.deliverLatePay(failed);
    rig.e.h.clock.advance(stage(1).minus(stage(0)));
    rig.sweep.runRound();
    rig.scan();

    assertThat(rig.check(failed).status()).isEqualTo(LateChargeStatus.REFUND_REQUESTED);
    assertThat(rig.refundedAtTheWallet(failed)).isEqualTo(failed.amount());
  }

  @Test
  void anUnknowableAnswerAtTheSweepIsKeptAsACheck() {
    PayFlow failed = rig.failedThenCharged();
    rig.e.h.clock.advance(stage(0));
    rig.e.h.wallet.setDown(true);

    rig.sweep.runRound();

    assertThat(rig.check(failed).status()).isEqualTo(LateChargeStatus.PENDING);
    rig.e.h.wallet.setDown(false);
    rig.scan();
    assertThat(rig.check(failed).status()).isEqualTo(LateChargeStatus.REFUND_REQUESTED);
  }

  @Test
  void aStageHeldByAnotherSweeperIsLeftToIt() {
    rig.failedThenCharged();
    rig.e.h.clock.advance(stage(0));
    LateChargeRig other = rig.restart();
    var held = other.leases.next();
    assertThat(
            other.sweeps.claimStage(
                stage(0),
                new dev.clearway.core.latecharge.port.SweepStore.Cursor(
                    rig.e.h.clock.instant().minus(stage(1)), 0),
                held,
                rig.e.h.clock.instant()))
        .isPresent();

    assertThat(rig.sweep.runRound()).as("stage 0 is held; later stages have nothing yet").isZero();

    rig.e.h.clock.advance(RefundTestEngine.CONFIG.lease().plusMillis(1));
    assertThat(rig.sweep.runRound()).as("the lease expired: taken over").isEqualTo(1);
  }
}
