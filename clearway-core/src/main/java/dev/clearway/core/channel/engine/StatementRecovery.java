package dev.clearway.core.channel.engine;

import dev.clearway.core.channel.decision.StatementSettlementDecision;
import dev.clearway.core.channel.decision.StatementSettlementDecision.Coverage;
import dev.clearway.core.channel.decision.StatementVerdict;
import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.reconciliation.domain.AccountTerms;
import dev.clearway.core.reconciliation.port.AccountTermsSource;
import dev.clearway.core.reconciliation.port.StatementFacts;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads what the imported statements say about one attempt (the {@code RECONCILIATION} recovery
 * strategy): the lines naming its trade order or key, whether the statements of its day and the
 * next day (in the account's statement zone) are imported, and the account's settlement window. The
 * verdict is {@link StatementSettlementDecision}'s.
 */
public final class StatementRecovery {
  private final StatementFacts facts;
  private final AccountTermsSource terms;

  public StatementRecovery(StatementFacts facts, AccountTermsSource terms) {
    this.facts = Objects.requireNonNull(facts, "facts");
    this.terms = Objects.requireNonNull(terms, "terms");
  }

  /** The verdict on {@code attempt} of the account {@code accountRef}, as of {@code now}. */
  public StatementVerdict verdict(Attempt attempt, String accountRef, Instant now) {
    LocalDate day = attempt.createdAt().atZone(terms.statementZone(accountRef)).toLocalDate();
    Optional<AccountTerms> agreed = terms.terms(accountRef);
    Coverage coverage =
        new Coverage(
            facts.imported(accountRef, day),
            facts.imported(accountRef, day.plusDays(1)),
            agreed.map(t -> attempt.createdAt().plus(t.settlementWindow())).orElse(null));
    return StatementSettlementDecision.decide(
        attempt,
        facts.linesFor(accountRef, attempt.tradeOrderNo(), attempt.providerIdempotencyKey()),
        coverage,
        now);
  }
}
