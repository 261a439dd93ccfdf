package dev.clearway.core.reconciliation.decision;

import dev.clearway.core.reconciliation.domain.AccountTerms;
import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.DifferenceClass;
import dev.clearway.core.reconciliation.domain.LineOutcome;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.domain.StatementKind;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Optional;

/**
 * The many-to-one check of a statement whose fees are reported on lines of their own, each grouping
 * many payments: the fee lines of the file must add up to the fees of the day's charges (a charge
 * line's own fee when it has one, else what the account's terms say). Accumulates one charge at a
 * time, so the day is never held in memory.
 */
public final class FeeBalance {
  private final AccountTerms terms;
  private long expected;
  private long charges;

  public FeeBalance(AccountTerms terms) {
    this.terms = terms;
  }

  /** Counts one succeeded charge line of the file. */
  public void charge(StatementFact line) {
    if (!line.succeeded()) {
      return;
    }
    charges++;
    expected =
        Math.addExact(
            expected,
            line.feeMinor() != 0 ? line.feeMinor() : terms.expectedChargeFee(line.amountMinor()));
  }

  public long expected() {
    return expected;
  }

  /** The identity of an account-day's fee balance, in the place of a trade order number. */
  public static String identity(LocalDate day) {
    return "FEES-" + day;
  }

  /**
   * The FEE_MISMATCH of the account-day when the fee lines' total {@code reported} is not what the
   * charges add up to; the difference is about the day (no local row), actionable at once.
   */
  public Optional<Difference> check(long reported, LocalDate day, Instant at) {
    if (reported == expected) {
      return Optional.empty();
    }
    StatementFact group =
        new StatementFact(
            StatementKind.ADJUSTMENT,
            LineOutcome.SUCCEEDED,
            identity(day),
            null,
            null,
            "fees " + day,
            reported,
            reported,
            terms.currency(),
            at,
            terms.account());
    return Optional.of(
        new Difference(
            DifferenceClass.FEE_MISMATCH,
            group,
            null,
            null,
            null,
            at,
            "fee lines total "
                + reported
                + ", the day's "
                + charges
                + " charges add up to "
                + expected));
  }
}
