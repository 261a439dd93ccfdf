package dev.clearway.core.reconciliation.decision;

import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.DifferenceClass;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.ReconWindow;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.port.BusinessFacts;
import dev.clearway.core.reconciliation.port.LocalFacts;
import java.util.List;
import java.util.Optional;

/**
 * Matches statement lines one at a time to the local row with the same stable identity (attempt
 * key, trade order no, refund order no) and classifies the pair. It remembers only the numbers it
 * saw, in {@link #seen()}, for the pass over local successes.
 */
public final class StatementMatcher {
  private final LocalFacts locals;
  private final ChargeLineClassifier charges;
  private final ReconWindow window;
  private final SeenKeys seen = new SeenKeys();

  public StatementMatcher(LocalFacts locals, BusinessFacts business, ReconWindow window) {
    this.locals = locals;
    this.charges = new ChargeLineClassifier(locals, business);
    this.window = window;
  }

  /**
   * The differences one line shows; empty when it agrees with the local side.
   *
   * @throws IllegalArgumentException when the line belongs to another account than the window's
   */
  public List<Difference> match(StatementFact line) {
    if (!line.account().equals(window.account())) {
      throw new IllegalArgumentException(
          "line of account " + line.account() + " in the window of " + window.account());
    }
    Optional<LocalFact> local = find(line);
    if (local.isEmpty()) {
      return List.of(unknown(line));
    }
    return switch (line.kind()) {
      case CHARGE -> matchCharge(line, local.get());
      case REFUND -> {
        seen.refund(line.refundOrderNo());
        yield RefundLineClassifier.classify(line, local.get(), window).stream().toList();
      }
      case ADJUSTMENT ->
          List.of(
              Difference.between(
                  DifferenceClass.ADJUSTMENT_TO_REVIEW, line, local.get(), "PSP adjustment"));
    };
  }

  public SeenKeys seen() {
    return seen;
  }

  private List<Difference> matchCharge(StatementFact line, LocalFact local) {
    seen.charge(local.tradeOrderNo());
    if (!line.succeeded()) {
      return List.of();
    }
    return charges.classify(line, local, window.terms());
  }

  private Optional<LocalFact> find(StatementFact line) {
    return switch (line.kind()) {
      case CHARGE, ADJUSTMENT -> {
        Optional<LocalFact> byKey =
            line.attemptKey() == null ? Optional.empty() : locals.byAttemptKey(line.attemptKey());
        yield byKey.isPresent() || line.tradeOrderNo() == null
            ? byKey
            : locals.byTradeOrderNo(line.tradeOrderNo());
      }
      case REFUND ->
          line.refundOrderNo() == null
              ? Optional.empty()
              : locals.byRefundOrderNo(line.refundOrderNo());
    };
  }

  private static Difference unknown(StatementFact line) {
    return new Difference(
        DifferenceClass.UNKNOWN_STATEMENT_LINE,
        line,
        null,
        null,
        null,
        line.at(),
        line.kind() + " line matches no local row");
  }
}
