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
 * key, trade order no, refund order no; a refund line without our refund number through its
 * payment's refunds of its amount) and classifies the pair. It remembers only the numbers it saw,
 * in {@link #seen()}, for the pass over local successes.
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
    if (line.kind() == StatementKind.REFUND) {
      return matchRefund(line);
    }
    Optional<LocalFact> local = payment(line);
    if (local.isEmpty()) {
      return List.of(unknown(line));
    }
    listener.matched(line, local.get(), ambiguous(line, local.get()));
    return switch (line.kind()) {
      case CHARGE -> matchCharge(line, local.get());
      case REFUND -> throw new IllegalStateException("refund lines are matched apart");
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

  /**
   * A refund line is matched by our refund number when it carries one; otherwise through its
   * payment (attempt key, else trade order no) to one of that payment's refunds with its amount
   * ({@link RefundCandidates}).
   */
  private List<Difference> matchRefund(StatementFact line) {
    Optional<LocalFact> byNumber =
        line.refundOrderNo() == null
            ? Optional.empty()
            : locals.byRefundOrderNo(line.refundOrderNo());
    Optional<RefundCandidates.Choice> choice =
        byNumber.isPresent()
            ? byNumber.map(l -> new RefundCandidates.Choice(l, false))
            : payment(line)
                .flatMap(
                    p ->
                        RefundCandidates.choose(
                            line, locals.refundsOfPayment(p.tradeOrderNo()), seen::sawRefund));
    if (choice.isEmpty()) {
      return List.of(unknown(line));
    }
    LocalFact local = choice.get().local();
    listener.matched(line, local, choice.get().ambiguous());
    seen.refund(line.refundOrderNo());
    seen.refund(local.refundOrderNo());
    return RefundLineClassifier.classify(line, local, window).stream().toList();
  }

  /** The payment a line names: by its attempt key, else by its trade order no. */
  private Optional<LocalFact> payment(StatementFact line) {
    Optional<LocalFact> byKey =
        line.attemptKey() == null ? Optional.empty() : locals.byAttemptKey(line.attemptKey());
    return byKey.isPresent() || line.tradeOrderNo() == null
        ? byKey
        : locals.byTradeOrderNo(line.tradeOrderNo());
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
