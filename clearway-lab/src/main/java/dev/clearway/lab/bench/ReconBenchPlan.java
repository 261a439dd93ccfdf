package dev.clearway.lab.bench;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code clearway bench reconcile} builds: {@code lines} local payments of one wallet account
 * and day, and a statement of {@code lines} charge lines that agrees with them except for {@code
 * perClass} planted differences of each of four classes. Payment {@code i} (1-based) is trade order
 * {@code prefix-i}, charged at {@code at(i)}, for {@code amount(i)} CNY minor units; the SQL of the
 * local rows computes the same amount, so both sides come from one rule.
 *
 * <ul>
 *   <li>amount: the statement says one more minor unit than the payment;
 *   <li>missing: a BIZ_SUCCESS payment the statement does not list (its slot holds an unknown
 *       line);
 *   <li>unknown: a charge line for a trade order no local row has;
 *   <li>paying: a payment still PAYING (attempt UNKNOWN) that the statement shows charged.
 * </ul>
 */
record ReconBenchPlan(String prefix, String account, LocalDate day, int lines, int perClass) {
  static final String CURRENCY = "CNY";
  private static final int AMOUNT_OFFSET = 11;
  private static final int MISSING_OFFSET = 23;
  private static final int PAYING_OFFSET = 37;

  ReconBenchPlan {
    if (lines < 1000) {
      throw new IllegalArgumentException("--lines must be at least 1000");
    }
  }

  /** A plan with a run-unique prefix and account, {@code max(2, lines / 100,000)} per class. */
  static ReconBenchPlan of(int lines, LocalDate day, String runId) {
    return new ReconBenchPlan(
        "RB" + runId, "bench-wallet-" + runId, day, lines, Math.max(2, lines / 100_000));
  }

  private int step() {
    return lines / perClass;
  }

  /** The j-th payment (0-based) of a planted class, spread over the day. */
  private int planted(int j, int offset) {
    return j * step() + offset;
  }

  int[] amountMismatches() {
    return series(AMOUNT_OFFSET);
  }

  int[] missingFromStatement() {
    return series(MISSING_OFFSET);
  }

  int[] stillPaying() {
    return series(PAYING_OFFSET);
  }

  private int[] series(int offset) {
    int[] out = new int[perClass];
    for (int j = 0; j < perClass; j++) {
      out[j] = planted(j, offset);
    }
    return out;
  }

  boolean isAmountMismatch(int i) {
    return isPlanted(i, AMOUNT_OFFSET);
  }

  boolean isMissing(int i) {
    return isPlanted(i, MISSING_OFFSET);
  }

  private boolean isPlanted(int i, int offset) {
    int rest = i - offset;
    return rest >= 0 && rest % step() == 0 && rest / step() < perClass;
  }

  String tradeOrderNo(int i) {
    return prefix + "-" + i;
  }

  /** The trade order of the j-th statement line that no local row knows. */
  String unknownTradeOrderNo(int j) {
    return prefix + "-X" + j;
  }

  /** The payment's amount in minor units; {@code ReconBenchData} computes the same in SQL. */
  static long amount(int i) {
    return 100 + (i * 7919L) % 100_000;
  }

  Instant dayStart() {
    return day.atStartOfDay(ZoneOffset.UTC).toInstant();
  }

  /** When payment {@code i} was charged: the payments are spread evenly over the day. */
  Instant at(int i) {
    return dayStart().plusMillis((i - 1L) * Duration.ofDays(1).toMillis() / lines);
  }

  /** The differences planted, by class name. */
  Map<String, Integer> planted() {
    Map<String, Integer> planted = new TreeMap<>();
    planted.put("AMOUNT_MISMATCH", perClass);
    planted.put("BIZ_SUCCESS_WITHOUT_CHARGE", perClass);
    planted.put("CHARGED_LOCAL_PAYING", perClass);
    planted.put("UNKNOWN_STATEMENT_LINE", perClass);
    return planted;
  }

  int plantedTotal() {
    return 4 * perClass;
  }
}
