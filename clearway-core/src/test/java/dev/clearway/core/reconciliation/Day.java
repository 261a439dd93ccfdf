package dev.clearway.core.reconciliation;

import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.reconciliation.domain.AccountTerms;
import dev.clearway.core.reconciliation.domain.CompensationState;
import dev.clearway.core.reconciliation.domain.LineOutcome;
import dev.clearway.core.reconciliation.domain.LocalAttempt;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.LocalRefund;
import dev.clearway.core.reconciliation.domain.ReconWindow;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.refund.domain.RefundStatus;
import java.time.Duration;
import java.time.Instant;

/** Fixtures of one account-day: local rows and the statement lines that agree with them. */
final class Day {
  static final String ACCOUNT = "psp-eu-1";
  static final String EUR = "EUR";
  static final Instant FROM = Instant.parse("2026-11-30T00:00:00Z");
  static final Instant TO = FROM.plus(Duration.ofDays(1));
  static final AccountTerms TERMS = new AccountTerms(ACCOUNT, Duration.ofDays(2), 29_000, 30, EUR);

  /** Long after every settlement window of the day. */
  static final Instant LATE = TO.plus(Duration.ofDays(5));

  /** Right after the day: every settlement window still open. */
  static final Instant EARLY = TO.plus(Duration.ofHours(1));

  private Day() {}

  static ReconWindow window(Instant asOf) {
    return new ReconWindow(TERMS, FROM, TO, asOf);
  }

  static GoalKey goal(long flowId) {
    return new GoalKey("m1", 1000 + flowId, "renewal", "biz-" + flowId);
  }

  /** A flow of its own goal, paid through one attempt, in the given state. */
  static LocalFact flow(long flowId, FlowStatus status) {
    return flow(flowId, goal(flowId), status);
  }

  static LocalFact flow(long flowId, GoalKey goal, FlowStatus status) {
    OrderNumbers numbers = OrderNumbers.derive(goal.userId(), flowId);
    Instant created = FROM.plus(Duration.ofMinutes(flowId));
    LocalAttempt attempt =
        new LocalAttempt(50_000 + flowId, "ak_" + numbers.tradeOrderNo(), attemptOf(status), 3);
    return new LocalFact(
        flowId,
        goal,
        numbers.tradeOrderNo(),
        numbers.refundOrderNo(),
        status,
        7,
        attempt,
        null,
        1_000 + flowId,
        EUR,
        ACCOUNT,
        created,
        created.plus(Duration.ofMinutes(1)),
        CompensationState.NONE);
  }

  /** The same flow viewed with one after-sales refund order of part of its amount. */
  static LocalFact withRefund(LocalFact flow, RefundStatus status) {
    LocalRefund refund =
        new LocalRefund(
            90_000 + flow.flowId(),
            "rf_" + flow.tradeOrderNo() + "_1",
            status,
            flow.amountMinor() / 2,
            4,
            flow.updatedAt().plus(Duration.ofMinutes(5)));
    return new LocalFact(
        flow.flowId(),
        flow.goal(),
        flow.tradeOrderNo(),
        flow.flowRefundOrderNo(),
        flow.flowStatus(),
        flow.flowVersion(),
        flow.attempt(),
        refund,
        flow.amountMinor(),
        flow.currency(),
        flow.channelAccount(),
        flow.createdAt(),
        flow.updatedAt(),
        flow.compensation());
  }

  static LocalFact withCompensation(LocalFact flow, CompensationState state) {
    return new LocalFact(
        flow.flowId(),
        flow.goal(),
        flow.tradeOrderNo(),
        flow.flowRefundOrderNo(),
        flow.flowStatus(),
        flow.flowVersion(),
        flow.attempt(),
        flow.refund(),
        flow.amountMinor(),
        flow.currency(),
        flow.channelAccount(),
        flow.createdAt(),
        flow.updatedAt(),
        state);
  }

  /** The charge line that agrees with the flow: same amount and currency, the agreed fee. */
  static StatementFact chargeOf(LocalFact local) {
    return StatementFact.charge(
        local.tradeOrderNo(),
        local.attemptKey(),
        "psp_" + local.flowId(),
        local.amountMinor(),
        TERMS.expectedChargeFee(local.amountMinor()),
        local.currency(),
        local.createdAt().plus(Duration.ofSeconds(30)),
        ACCOUNT);
  }

  /** The refund line of the view's refund (its refund order's, else the flow's own). */
  static StatementFact refundOf(LocalFact local, LineOutcome outcome) {
    long amount = local.refund() != null ? local.refund().amountMinor() : local.amountMinor();
    return StatementFact.refund(
        outcome,
        local.tradeOrderNo(),
        local.refundOrderNo(),
        "psp_r_" + local.flowId(),
        amount,
        local.currency(),
        local.updatedAt().plus(Duration.ofMinutes(10)),
        ACCOUNT);
  }

  private static AttemptStatus attemptOf(FlowStatus status) {
    return switch (status) {
      case WAIT_PAY -> AttemptStatus.CREATED;
      case PAYING -> AttemptStatus.UNKNOWN;
      case PAY_FAIL, CLOSED -> AttemptStatus.FAILED;
      case PAYED, BIZ_SUCCESS, REFUNDING, REFUNDED -> AttemptStatus.SUCCEEDED;
    };
  }
}
