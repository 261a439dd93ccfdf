package dev.clearway.core.reconciliation.decision;

import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.DifferenceClass;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.StatementFact;
import java.util.Optional;

/** Currency first, then amount: a line that disagrees on either is not classified further. */
final class AmountCheck {
  private AmountCheck() {}

  static Optional<Difference> of(StatementFact line, LocalFact local, long expectedAmountMinor) {
    if (!line.currency().equals(local.currency())) {
      return Optional.of(
          Difference.between(
              DifferenceClass.CURRENCY_MISMATCH,
              line,
              local,
              "statement " + line.currency() + ", local " + local.currency()));
    }
    if (line.amountMinor() != expectedAmountMinor) {
      return Optional.of(
          Difference.between(
              DifferenceClass.AMOUNT_MISMATCH,
              line,
              local,
              "statement " + line.amountMinor() + ", local " + expectedAmountMinor));
    }
    return Optional.empty();
  }
}
