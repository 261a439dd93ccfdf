package dev.clearway.core.reconciliation.decision;

import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.DifferenceClass;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.ReconWindow;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.domain.StatementKind;
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
  private final MatchListener listener;

  public StatementMatcher(LocalFacts locals, BusinessFacts business, ReconWindow window) {
    this(locals, business, window, false, MatchListener.NONE);
  }

  /**
   * @param feesGrouped the statement reports fees on lines of their own, grouping many payments: a
   *     charge line without a fee is not a fee difference (the group is balanced instead)
   * @param listener told of every line matched to a local row
   */
  public StatementMatcher(
      LocalFacts locals,
      BusinessFacts business,
      ReconWindow window,
      boolean feesGrouped,
      MatchListener listener) {
    this.locals = locals;
    this.charges = new ChargeLineClassifier(locals, business, feesGrouped);
    this.window = window;
    this.listener = listener;
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
    listener.matched(line, local.get(), ambiguous(line, local.get()));
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

  /** The line's attempt key found one flow, and its trade order no names another (or none). */
  static boolean ambiguous(StatementFact line, LocalFact local) {
    return line.kind() != StatementKind.REFUND
        && line.attemptKey() != null
        && line.tradeOrderNo() != null
        && !line.tradeOrderNo().equals(local.tradeOrderNo());
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
