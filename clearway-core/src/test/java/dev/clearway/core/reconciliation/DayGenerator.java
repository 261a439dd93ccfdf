package dev.clearway.core.reconciliation;

import static dev.clearway.core.flow.domain.FlowStatus.BIZ_SUCCESS;
import static dev.clearway.core.flow.domain.FlowStatus.CLOSED;
import static dev.clearway.core.flow.domain.FlowStatus.PAYED;
import static dev.clearway.core.flow.domain.FlowStatus.PAYING;
import static dev.clearway.core.flow.domain.FlowStatus.PAY_FAIL;
import static dev.clearway.core.flow.domain.FlowStatus.REFUNDED;
import static dev.clearway.core.flow.domain.FlowStatus.REFUNDING;

import dev.clearway.core.reconciliation.domain.BusinessFact;
import dev.clearway.core.reconciliation.domain.BusinessStatus;
import dev.clearway.core.reconciliation.domain.CompensationState;
import dev.clearway.core.reconciliation.domain.DifferenceClass;
import dev.clearway.core.reconciliation.domain.LineOutcome;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.domain.StatementKind;
import dev.clearway.core.refund.domain.RefundStatus;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * A random account-day on which the statement, the local rows and the business agree, into which
 * one difference of a chosen class can be injected.
 */
final class DayGenerator {
  final InMemoryFacts facts = new InMemoryFacts();
  final List<StatementFact> lines = new ArrayList<>();
  private final Random random;
  private long nextFlowId = 1;

  DayGenerator(long seed) {
    this.random = new Random(seed);
  }

  DayGenerator consistent(int payments) {
    for (int i = 0; i < payments; i++) {
      addConsistent(random.nextInt(8));
    }
    return this;
  }

  /** The statement lines in a random order (the matcher must not depend on it). */
  List<StatementFact> shuffledLines() {
    List<StatementFact> copy = new ArrayList<>(lines);
    Collections.shuffle(copy, random);
    return copy;
  }

  private void addConsistent(int shape) {
    switch (shape) {
      case 0 -> fulfilled(flow(BIZ_SUCCESS));
      case 1 -> facts.local(flow(CLOSED));
      case 2 -> facts.local(flow(PAY_FAIL));
      case 3 -> refunded(flow(REFUNDED), LineOutcome.SUCCEEDED);
      case 4 ->
          refunded(
              Day.withRefund(fulfilled(flow(BIZ_SUCCESS)), RefundStatus.SUCCESS),
              LineOutcome.SUCCEEDED);
      case 5 ->
          refunded(
              Day.withRefund(fulfilled(flow(BIZ_SUCCESS)), RefundStatus.PROCESSING),
              LineOutcome.PROCESSING);
      case 6 -> charged(flow(PAYED));
      default -> charged(Day.withCompensation(flow(PAY_FAIL), CompensationState.OPEN));
    }
  }

  /** Adds one payment that differs from its statement in exactly the way {@code kind} names. */
  void inject(DifferenceClass kind) {
    switch (kind) {
      case CHARGED_LOCAL_PAYING -> charged(flow(PAYING));
      case LATE_CHARGE -> charged(flow(random.nextBoolean() ? CLOSED : PAY_FAIL));
      case BUSINESS_DONE_UNCONFIRMED -> fulfilled(flow(PAYED));
      case ATTRIBUTION_UNCLEAR -> {
        LocalFact payed = charged(flow(PAYED));
        facts.business(new BusinessFact(payed.goal(), BusinessStatus.DONE, null));
      }
      case BIZ_SUCCESS_WITHOUT_CHARGE -> facts.local(flow(BIZ_SUCCESS));
      case REFUND_NOT_AT_PSP -> charged(flow(REFUNDED));
      case REFUND_SETTLED_LOCAL_PENDING -> refunded(flow(REFUNDING), LineOutcome.SUCCEEDED);
      case DUPLICATE_CHARGE -> {
        LocalFact used = fulfilled(flow(BIZ_SUCCESS));
        charged(Day.flow(nextFlowId++, used.goal(), PAYED));
      }
      case AMOUNT_MISMATCH -> alteredCharge(flow(BIZ_SUCCESS), 1 + random.nextInt(50), 0, "EUR");
      case CURRENCY_MISMATCH -> alteredCharge(flow(BIZ_SUCCESS), 0, 0, "GBP");
      case UNKNOWN_STATEMENT_LINE -> lines.add(Day.chargeOf(Day.flow(nextFlowId++, PAYED)));
      case MISSING_FROM_STATEMENT -> facts.local(flow(PAYED));
      case FEE_MISMATCH -> alteredCharge(flow(BIZ_SUCCESS), 0, 1 + random.nextInt(9), "EUR");
      case ADJUSTMENT_TO_REVIEW -> adjusted(fulfilled(flow(BIZ_SUCCESS)));
    }
  }

  private LocalFact flow(dev.clearway.core.flow.domain.FlowStatus status) {
    return Day.flow(nextFlowId++, status);
  }

  private LocalFact charged(LocalFact local) {
    facts.local(local);
    lines.add(Day.chargeOf(local));
    return local;
  }

  private LocalFact fulfilled(LocalFact local) {
    facts.business(new BusinessFact(local.goal(), BusinessStatus.DONE, local.tradeOrderNo()));
    return charged(local);
  }

  private void refunded(LocalFact local, LineOutcome outcome) {
    if (local.refund() == null) {
      charged(local);
    } else {
      facts.local(local);
    }
    lines.add(Day.refundOf(local, outcome));
  }

  private void alteredCharge(LocalFact local, long extraAmount, long extraFee, String currency) {
    facts.business(new BusinessFact(local.goal(), BusinessStatus.DONE, local.tradeOrderNo()));
    facts.local(local);
    StatementFact line = Day.chargeOf(local);
    long amount = line.amountMinor() + extraAmount;
    long fee = Day.TERMS.expectedChargeFee(amount) + extraFee;
    lines.add(
        StatementFact.charge(
            line.tradeOrderNo(),
            line.attemptKey(),
            line.pspReference(),
            amount,
            fee,
            currency,
            line.at(),
            line.account()));
  }

  private void adjusted(LocalFact local) {
    StatementFact charge = Day.chargeOf(local);
    lines.add(
        new StatementFact(
            StatementKind.ADJUSTMENT,
            LineOutcome.SUCCEEDED,
            local.tradeOrderNo(),
            null,
            null,
            "adj_" + local.flowId(),
            -local.amountMinor(),
            0,
            local.currency(),
            charge.at().plusSeconds(600),
            Day.ACCOUNT));
  }
}
