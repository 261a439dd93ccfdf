package dev.clearway.core.reconciliation.decision;

import dev.clearway.core.reconciliation.domain.AccountTerms;
import dev.clearway.core.reconciliation.domain.BusinessFact;
import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.DifferenceClass;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.port.BusinessFacts;
import dev.clearway.core.reconciliation.port.LocalFacts;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Classifies one succeeded charge line against the local row it matched. */
final class ChargeLineClassifier {
  private final LocalFacts locals;
  private final BusinessFacts business;
  private final boolean feesGrouped;

  ChargeLineClassifier(LocalFacts locals, BusinessFacts business, boolean feesGrouped) {
    this.locals = locals;
    this.business = business;
    this.feesGrouped = feesGrouped;
  }

  List<Difference> classify(StatementFact line, LocalFact local, AccountTerms terms) {
    Optional<Difference> money = AmountCheck.of(line, local, local.amountMinor());
    if (money.isPresent()) {
      return List.of(money.get());
    }
    List<Difference> found = new ArrayList<>(2);
    long expectedFee = terms.expectedChargeFee(line.amountMinor());
    boolean feeItemised = !feesGrouped || line.feeMinor() != 0;
    if (feeItemised && line.feeMinor() != expectedFee) {
      found.add(
          Difference.between(
              DifferenceClass.FEE_MISMATCH,
              line,
              local,
              "fee " + line.feeMinor() + ", terms say " + expectedFee));
    }
    byStatus(line, local).ifPresent(found::add);
    return found;
  }

  private Optional<Difference> byStatus(StatementFact line, LocalFact local) {
    return switch (local.flowStatus()) {
      case WAIT_PAY, PAYING ->
          Optional.of(
              Difference.between(
                  DifferenceClass.CHARGED_LOCAL_PAYING, line, local, "PSP charged, flow PAYING"));
      case PAY_FAIL, CLOSED -> lateCharge(line, local);
      case PAYED -> payedWithCharge(line, local);
      case BIZ_SUCCESS, REFUNDING, REFUNDED -> Optional.empty();
    };
  }

  private static Optional<Difference> lateCharge(StatementFact line, LocalFact local) {
    if (local.compensation().exists()) {
      return Optional.empty();
    }
    return Optional.of(
        Difference.between(
            DifferenceClass.LATE_CHARGE,
            line,
            local,
            "PSP charged, flow " + local.flowStatus() + " and no refund under way"));
  }

  private Optional<Difference> payedWithCharge(StatementFact line, LocalFact local) {
    Optional<BusinessFact> said = business.byGoal(local.goal());
    if (said.isEmpty() || !said.get().isDone()) {
      return Optional.empty();
    }
    BusinessFact fact = said.get();
    if (fact.attributes(local.tradeOrderNo())) {
      return Optional.of(
          new Difference(
              DifferenceClass.BUSINESS_DONE_UNCONFIRMED,
              line,
              local,
              null,
              fact,
              line.at(),
              "business fulfilled the goal with this trade order, flow PAYED"));
    }
    Optional<LocalFact> sibling =
        fact.isAttributed()
            ? locals.byTradeOrderNo(fact.attributedTradeOrderNo())
            : Optional.empty();
    if (sibling.isPresent()
        && sibling.get().goal().equals(local.goal())
        && sibling.get().locallyCharged()) {
      return Optional.of(
          new Difference(
              DifferenceClass.DUPLICATE_CHARGE,
              line,
              local,
              sibling.get(),
              fact,
              line.at(),
              "goal fulfilled with " + sibling.get().tradeOrderNo() + ", this charge unused"));
    }
    return Optional.of(
        new Difference(
            DifferenceClass.ATTRIBUTION_UNCLEAR,
            line,
            local,
            null,
            fact,
            line.at(),
            "business fulfilled the goal without naming a charged trade order of it"));
  }
}
