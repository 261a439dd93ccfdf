package dev.clearway.core.reconciliation.domain;

import java.time.Instant;
import java.util.Objects;

/**
 * One account-day of reconciliation: the statement covers {@code [from, to)}, and the run looks at
 * it at {@code asOf}.
 */
public record ReconWindow(AccountTerms terms, Instant from, Instant to, Instant asOf) {

  public ReconWindow {
    Objects.requireNonNull(terms, "terms");
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    Objects.requireNonNull(asOf, "asOf");
    if (!from.isBefore(to)) {
      throw new IllegalArgumentException("empty window " + from + " .. " + to);
    }
  }

  public String account() {
    return terms.account();
  }

  /** The moment a movement made at {@code at} must be on the statement by. */
  public Instant settledBy(Instant at) {
    return at.plus(terms.settlementWindow());
  }
}
