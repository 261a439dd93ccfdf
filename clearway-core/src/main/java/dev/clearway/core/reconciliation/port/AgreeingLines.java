package dev.clearway.core.reconciliation.port;

import dev.clearway.core.reconciliation.domain.AccountTerms;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.StatementFact;
import java.time.Instant;
import java.util.stream.Stream;

/**
 * The set-based side of one run: the store settles, in a few statements, the charge lines of a file
 * that agree exactly with their local row (lines the matcher would match to that one row and report
 * nothing for), and hands the matcher only the rest. A store claims a line only when the matcher
 * would surely find no difference for it; anything else, ambiguous included, stays with the
 * matcher.
 */
public interface AgreeingLines {

  /**
   * A local movement the agreeing lines did not account for, and whether its charge was shown by an
   * agreeing line (a refund view of a payment whose charge agreed).
   */
  record Unseen(LocalFact local, boolean chargeShown) {}

  /** One run's claim over one file; closing it releases what the store held for it. */
  interface Claim extends AutoCloseable {

    /** How many lines of the file agreed and were settled. */
    long agreed();

    /** The file's money lines that did not agree, in line order, streamed (caller closes). */
    Stream<StatementFact> remaining();

    /**
     * The movements of {@code [from, to)} as {@link LocalDay#movementsIn} reads them, less the
     * charges an agreeing line showed (a refund view of such a charge comes with {@code
     * chargeShown}); streamed, the caller closes.
     */
    Stream<Unseen> unseen(Instant from, Instant to);

    @Override
    void close();
  }

  /**
   * Selects the file's agreeing charge lines and settles their payments (SETTLED, with a history
   * row); a payment already SETTLED is left as it is, and a line whose payment has another
   * settlement status does not agree here (it stays with the matcher).
   *
   * @param at the time of the settlement rows
   */
  Claim claim(long fileId, String account, AccountTerms terms, Instant at);
}
