package dev.clearway.core.channel.decision;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.reconciliation.domain.LineOutcome;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.domain.StatementKind;
import java.time.Instant;
import java.util.List;

/**
 * An attempt's result from the imported statements. Pure.
 *
 * <p>A line is the attempt's when it carries the attempt's key. Exactly one succeeded charge line
 * for the attempt's amount and currency proves the charge; another amount or currency, several
 * charges, a refund or adjustment without the charge, or a charge line naming the attempt's trade
 * order without any attempt key go to a person. No line at all proves that nothing was charged only
 * once the statements of the attempt's day and of the next day are both imported (a payment near
 * midnight sits in the next day's file) and the account's settlement window since the attempt's
 * creation has passed; until then the statements cannot tell.
 */
public final class StatementSettlementDecision {

  /** Reasons a person is asked. */
  public static final String AMOUNT_DIFFERS = "STATEMENT_AMOUNT_MISMATCH";

  public static final String CURRENCY_DIFFERS = "STATEMENT_CURRENCY_MISMATCH";
  public static final String SEVERAL_CHARGES = "STATEMENT_SEVERAL_CHARGES";
  public static final String NO_CHARGE_LINE = "STATEMENT_MOVEMENT_WITHOUT_CHARGE";
  public static final String UNATTRIBUTED = "STATEMENT_CHARGE_WITHOUT_KEY";

  /** Reasons to wait. */
  public static final String NO_TERMS = "NO_ACCOUNT_TERMS";

  public static final String NOT_IMPORTED = "STATEMENT_NOT_IMPORTED";
  public static final String WINDOW_OPEN = "SETTLEMENT_WINDOW_OPEN";
  public static final String CHARGE_PROCESSING = "STATEMENT_CHARGE_PROCESSING";

  /**
   * How far the imported statements cover the attempt.
   *
   * @param settledBy when the account's settlement window since the attempt's creation ends, or
   *     null when the account has no terms
   */
  public record Coverage(boolean dayImported, boolean nextDayImported, Instant settledBy) {}

  private StatementSettlementDecision() {}

  /**
   * @param lines the money lines naming the attempt's trade order or key, of every file in force
   */
  public static StatementVerdict decide(
      Attempt attempt, List<StatementFact> lines, Coverage coverage, Instant now) {
    String key = attempt.providerIdempotencyKey();
    List<StatementFact> mine =
        lines.stream().filter(l -> key != null && key.equals(l.attemptKey())).toList();
    List<StatementFact> charges =
        mine.stream().filter(l -> l.kind() == StatementKind.CHARGE).toList();
    List<StatementFact> succeeded = charges.stream().filter(StatementFact::succeeded).toList();
    if (succeeded.size() > 1) {
      return new StatementVerdict.ToPerson(SEVERAL_CHARGES);
    }
    if (succeeded.size() == 1) {
      return charged(attempt, succeeded.get(0));
    }
    if (charges.stream().anyMatch(l -> l.outcome() == LineOutcome.PROCESSING)) {
      return new StatementVerdict.Wait(CHARGE_PROCESSING);
    }
    if (!mine.isEmpty()) {
      return new StatementVerdict.ToPerson(NO_CHARGE_LINE);
    }
    boolean unattributed =
        lines.stream()
            .anyMatch(
                l ->
                    l.kind() == StatementKind.CHARGE
                        && l.attemptKey() == null
                        && attempt.tradeOrderNo().equals(l.tradeOrderNo()));
    if (unattributed) {
      return new StatementVerdict.ToPerson(UNATTRIBUTED);
    }
    return absent(coverage, now);
  }

  private static StatementVerdict charged(Attempt attempt, StatementFact line) {
    if (!attempt.money().currency().equalsIgnoreCase(line.currency())) {
      return new StatementVerdict.ToPerson(CURRENCY_DIFFERS);
    }
    if (attempt.money().amount() != line.amountMinor()) {
      return new StatementVerdict.ToPerson(AMOUNT_DIFFERS);
    }
    return new StatementVerdict.Charged(line);
  }

  private static StatementVerdict absent(Coverage coverage, Instant now) {
    if (coverage.settledBy() == null) {
      return new StatementVerdict.Wait(NO_TERMS);
    }
    if (!coverage.dayImported() || !coverage.nextDayImported()) {
      return new StatementVerdict.Wait(NOT_IMPORTED);
    }
    if (now.isBefore(coverage.settledBy())) {
      return new StatementVerdict.Wait(WINDOW_OPEN);
    }
    return new StatementVerdict.NotCharged();
  }
}
