package dev.clearway.core.refund.decision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.fact.Certainty;
import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.refund.decision.RefundOrderDecision.Move;
import dev.clearway.core.refund.decision.RefundOrderDecision.NextCall;
import dev.clearway.core.refund.decision.RefundOrderDecision.Verdict;
import dev.clearway.core.refund.decision.RefundOrderDecision.Wait;
import dev.clearway.core.refund.domain.RefundNumbers;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refund.domain.RefundTransitions;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** The after-sales refund decision table, row by row. */
class RefundOrderDecisionTest {
  private static final int BUDGET = 3;
  private static final Instant T = Instant.parse("2030-01-01T00:00:00Z");

  static RefundOrder refund(RefundStatus status, int retryCount) {
    return new RefundOrder(
        7,
        42,
        "merchant-a",
        1,
        "t_g_16",
        RefundNumbers.of("t_g_16", 1),
        500,
        "CNY",
        "damaged",
        "merchant-a",
        status,
        3,
        T,
        retryCount,
        null,
        "lease-1",
        T,
        T);
  }

  // ---- PENDING -----------------------------------------------------------------------------

  @ParameterizedTest
  @EnumSource(
      value = FlowStatus.class,
      names = {"BIZ_SUCCESS", "PAY_FAIL", "CLOSED"})
  void pendingOfARefundableFlowIsSent(FlowStatus status) {
    assertThat(RefundOrderDecision.onPending(status))
        .isEqualTo(new Move(RefundStatus.PROCESSING, null));
  }

  @ParameterizedTest
  @EnumSource(
      value = FlowStatus.class,
      names = {"BIZ_SUCCESS", "PAY_FAIL", "CLOSED"},
      mode = EnumSource.Mode.EXCLUDE)
  void pendingOfAnyOtherFlowIsClosedWithoutACall(FlowStatus status) {
    assertThat(RefundOrderDecision.onPending(status))
        .isEqualTo(new Move(RefundStatus.CLOSED, "FLOW_NOT_REFUNDABLE"));
  }

  @Test
  void pendingOfAMissingFlowIsClosed() {
    assertThat(RefundOrderDecision.onPending(null))
        .isEqualTo(new Move(RefundStatus.CLOSED, "FLOW_NOT_FOUND"));
  }

  // ---- afterQuery --------------------------------------------------------------------------

  static Stream<Arguments> queries() {
    return Stream.of(
        Arguments.of(WalletResult.noRecord("q"), NextCall.RESEND_SAME_REFUND),
        Arguments.of(WalletResult.failed("BUSY", "q", true), NextCall.RESEND_SAME_REFUND),
        Arguments.of(WalletResult.failed("ACCOUNT_CLOSED", "q", false), NextCall.DECIDE),
        Arguments.of(WalletResult.success("q"), NextCall.DECIDE),
        Arguments.of(WalletResult.processing("q"), NextCall.DECIDE),
        Arguments.of(WalletResult.unknown("TIMEOUT"), NextCall.DECIDE));
  }

  @ParameterizedTest
  @MethodSource("queries")
  void aQueryEitherDecidesOrResendsTheSameNumber(WalletResult query, NextCall expected) {
    assertThat(RefundOrderDecision.afterQuery(query)).isEqualTo(expected);
  }

  @ParameterizedTest
  @EnumSource(Certainty.class)
  void everyCertaintyHasAnAnswerAfterAQuery(Certainty certainty) {
    WalletResult query = new WalletResult(certainty, "X", "q", false);
    assertThat(RefundOrderDecision.afterQuery(query)).isNotNull();
  }

  // ---- onResult ----------------------------------------------------------------------------

  static Stream<Arguments> results() {
    return Stream.of(
        // refund status, retries so far, answer, verdict
        Arguments.of(
            RefundStatus.PROCESSING,
            0,
            WalletResult.success("r"),
            new Move(RefundStatus.SUCCESS, null)),
        Arguments.of(
            RefundStatus.PROCESSING,
            0,
            WalletResult.failed("ACCOUNT_CLOSED", "r", false),
            new Move(RefundStatus.FAIL, "ACCOUNT_CLOSED")),
        Arguments.of(
            RefundStatus.PROCESSING,
            0,
            new WalletResult(Certainty.DEFINITE_FAILURE, null, "r", false),
            new Move(RefundStatus.FAIL, "REFUND_FAILED_FINAL")),
        Arguments.of(
            RefundStatus.PROCESSING,
            0,
            WalletResult.failed("BALANCE_LOW", "r", true),
            new Wait("BALANCE_LOW")),
        Arguments.of(
            RefundStatus.PROCESSING,
            1,
            WalletResult.processing("r"),
            new Wait("REFUND_PROCESSING")),
        Arguments.of(
            RefundStatus.PROCESSING, 2, WalletResult.unknown("TIMEOUT"), new Wait("TIMEOUT")),
        Arguments.of(
            RefundStatus.PROCESSING,
            0,
            new WalletResult(Certainty.UNKNOWN, null, null, false),
            new Wait("REFUND_UNKNOWN")),
        Arguments.of(
            RefundStatus.PROCESSING, 0, WalletResult.noRecord("r"), new Wait("REFUND_NO_RECORD")),
        // the budget: the reschedule that would exceed it moves to ABNORMAL instead
        Arguments.of(
            RefundStatus.PROCESSING,
            BUDGET,
            WalletResult.unknown("TIMEOUT"),
            new Move(RefundStatus.ABNORMAL, "RETRY_BUDGET_SPENT:TIMEOUT")),
        Arguments.of(
            RefundStatus.PROCESSING,
            BUDGET,
            WalletResult.processing("r"),
            new Move(RefundStatus.ABNORMAL, "RETRY_BUDGET_SPENT:REFUND_PROCESSING")),
        // ...but a decisive answer decides even then
        Arguments.of(
            RefundStatus.PROCESSING,
            BUDGET,
            WalletResult.success("r"),
            new Move(RefundStatus.SUCCESS, null)),
        // ABNORMAL: decisive answers leave it, anything else waits (slowly), never dropped
        Arguments.of(
            RefundStatus.ABNORMAL,
            40,
            WalletResult.success("r"),
            new Move(RefundStatus.SUCCESS, null)),
        Arguments.of(
            RefundStatus.ABNORMAL,
            40,
            WalletResult.failed("ACCOUNT_CLOSED", "r", false),
            new Move(RefundStatus.FAIL, "ACCOUNT_CLOSED")),
        Arguments.of(
            RefundStatus.ABNORMAL, 40, WalletResult.unknown("TIMEOUT"), new Wait("TIMEOUT")),
        Arguments.of(
            RefundStatus.ABNORMAL,
            40,
            WalletResult.processing("r"),
            new Wait("REFUND_PROCESSING")));
  }

  @ParameterizedTest(name = "{0} after {1} retries, {2} -> {3}")
  @MethodSource("results")
  void theTable(RefundStatus status, int retries, WalletResult answer, Verdict expected) {
    assertThat(RefundOrderDecision.onResult(refund(status, retries), answer, BUDGET))
        .isEqualTo(expected);
  }

  @ParameterizedTest
  @EnumSource(
      value = RefundStatus.class,
      names = {"PROCESSING", "ABNORMAL"})
  void everyVerdictIsALegalEdgeOrAWait(RefundStatus status) {
    for (Certainty c : Certainty.values()) {
      for (boolean retryable : new boolean[] {true, false}) {
        for (int retries : new int[] {0, BUDGET - 1, BUDGET, BUDGET + 5}) {
          Verdict v =
              RefundOrderDecision.onResult(
                  refund(status, retries), new WalletResult(c, "E", "r", retryable), BUDGET);
          if (v instanceof Move m) {
            assertThat(RefundTransitions.isLegal(status, m.to()))
                .as("%s %s retryable=%s retries=%d -> %s", status, c, retryable, retries, m)
                .isTrue();
          } else {
            assertThat(v).isInstanceOf(Wait.class);
          }
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = RefundStatus.class,
      names = {"PENDING", "SUCCESS", "FAIL", "CLOSED"})
  void noWalletAnswerIsDecidedOutsidePROCESSINGAndABNORMAL(RefundStatus status) {
    assertThatThrownBy(
            () -> RefundOrderDecision.onResult(refund(status, 0), WalletResult.unknown("X"), 3))
        .isInstanceOf(IllegalStateException.class);
  }
}
