package dev.clearway.core.latecharge.decision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.fact.Certainty;
import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.latecharge.decision.LateChargeDecision.Ask;
import dev.clearway.core.latecharge.decision.LateChargeDecision.Move;
import dev.clearway.core.latecharge.decision.LateChargeDecision.SweepFinding;
import dev.clearway.core.latecharge.decision.LateChargeDecision.Wait;
import dev.clearway.core.latecharge.domain.LateChargeCheck;
import dev.clearway.core.latecharge.domain.LateChargeStatus;
import dev.clearway.core.latecharge.domain.LateChargeTransitions;
import dev.clearway.core.latecharge.domain.SuspicionSource;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refund.port.RefundStore.CreateOutcome;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The late-charge decisions and their transition table, as pure functions. */
class LateChargeDecisionTest {
  private static final int BUDGET = 3;
  private static final Instant T = Instant.parse("2030-01-01T00:00:00Z");

  private static LateChargeCheck check(LateChargeStatus status, int retries) {
    return new LateChargeCheck(
        1, 2, "t_1", SuspicionSource.CALLBACK, status, 0, T, retries, null, null, null, "w", T, T);
  }

  private static WalletResult answer(Certainty certainty) {
    return new WalletResult(
        certainty, certainty == Certainty.UNKNOWN ? "TIMEOUT" : null, "r", false);
  }

  @ParameterizedTest
  @EnumSource(FlowStatus.class)
  void onlyAFlowThatEndedUnpaidIsAskedAbout(FlowStatus status) {
    boolean ended = status == FlowStatus.PAY_FAIL || status == FlowStatus.CLOSED;
    assertThat(LateChargeDecision.onFlow(status))
        .isEqualTo(
            ended
                ? new Ask()
                : new Move(LateChargeStatus.NOT_APPLICABLE, "FLOW_NOT_ENDED_UNPAID", null));
    assertThat(LateChargeDecision.onFlow(null)).isInstanceOf(Move.class);
  }

  @ParameterizedTest
  @EnumSource(Certainty.class)
  void theWalletsAnswerDecides(Certainty certainty) {
    for (LateChargeStatus status :
        new LateChargeStatus[] {LateChargeStatus.PENDING, LateChargeStatus.MANUAL}) {
      for (int retries : new int[] {0, BUDGET - 1, BUDGET}) {
        var verdict =
            LateChargeDecision.afterQuery(check(status, retries), answer(certainty), BUDGET);
        switch (certainty) {
          case SUCCESS ->
              assertThat(verdict)
                  .isEqualTo(new Move(LateChargeStatus.CHARGE_CONFIRMED, null, null));
          case DEFINITE_FAILURE, NO_RECORD ->
              assertThat(verdict)
                  .extracting(v -> ((Move) v).to())
                  .isEqualTo(LateChargeStatus.NO_CHARGE);
          case PROCESSING, UNKNOWN -> {
            boolean spent = status == LateChargeStatus.PENDING && retries >= BUDGET;
            if (spent) {
              assertThat(verdict)
                  .extracting(v -> ((Move) v).to())
                  .isEqualTo(LateChargeStatus.MANUAL);
            } else {
              assertThat(verdict).isInstanceOf(Wait.class);
            }
          }
        }
      }
    }
  }

  @Test
  void theRefundRequestEndsTheCheckOrHandsItToAPerson() {
    RefundOrder refund =
        new RefundOrder(
            9,
            2,
            "default",
            1,
            "t_1",
            "a_t_1_1",
            100,
            "CNY",
            "r",
            "clearway",
            RefundStatus.PENDING,
            0,
            T,
            0,
            null,
            "x",
            T,
            T);
    assertThat(LateChargeDecision.afterRefundRequest(new CreateOutcome.Created(refund)))
        .isEqualTo(new Move(LateChargeStatus.REFUND_REQUESTED, null, 9L));
    assertThat(LateChargeDecision.afterRefundRequest(new CreateOutcome.Replayed(refund)))
        .isEqualTo(new Move(LateChargeStatus.REFUND_REQUESTED, null, 9L));
    assertThat(
            LateChargeDecision.afterRefundRequest(new CreateOutcome.NotAllowed(FlowStatus.PAYED)))
        .extracting(v -> ((Move) v).to())
        .isEqualTo(LateChargeStatus.NOT_APPLICABLE);
    for (CreateOutcome refused :
        new CreateOutcome[] {
          new CreateOutcome.ExceedsPayment(100, 100),
          new CreateOutcome.KeyReused(),
          new CreateOutcome.FlowNotFound()
        }) {
      assertThat(LateChargeDecision.afterRefundRequest(refused))
          .extracting(v -> ((Move) v).to())
          .isEqualTo(LateChargeStatus.MANUAL);
    }
  }

  @ParameterizedTest
  @EnumSource(Certainty.class)
  void theSweepRecordsEverythingButADefiniteNoCharge(Certainty certainty) {
    boolean none = certainty == Certainty.DEFINITE_FAILURE || certainty == Certainty.NO_RECORD;
    assertThat(LateChargeDecision.sweepFinding(answer(certainty)))
        .isEqualTo(none ? SweepFinding.NO_CHARGE : SweepFinding.SUSPECT);
  }

  @ParameterizedTest
  @EnumSource(LateChargeStatus.class)
  void terminalStatesHaveNoWayOutAndEveryOtherStateHasAnExit(LateChargeStatus status) {
    if (status.isTerminal()) {
      assertThat(LateChargeTransitions.targetsOf(status)).isEmpty();
    } else {
      assertThat(LateChargeTransitions.targetsOf(status)).anyMatch(LateChargeStatus::isTerminal);
      assertThat(LateChargeTransitions.isLegal(status, LateChargeStatus.PENDING)).isFalse();
    }
    assertThatThrownBy(() -> LateChargeTransitions.requireLegal(status, status))
        .isInstanceOf(IllegalStateException.class);
  }
}
