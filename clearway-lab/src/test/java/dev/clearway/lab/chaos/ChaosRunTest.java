package dev.clearway.lab.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The chaos proof inside the build: 2,000 payments at fault rate 0.3 on embedded PostgreSQL, every
 * flow converges, no invariant is violated, manual review stays under 0.5%, and the CSV files alone
 * (parsed here without any engine code) agree.
 */
class ChaosRunTest {
  private static final int PAYMENTS = 2_000;
  private static final Set<String> TERMINAL =
      Set.of("PAY_FAIL", "BIZ_SUCCESS", "REFUNDED", "CLOSED");

  @TempDir static Path out;
  static ChaosRun.Report report;

  @BeforeAll
  static void run() {
    ChaosOptions options = new ChaosOptions(PAYMENTS, 20261201L, 0.3, 16, out, null, 600);
    report = new ChaosRun(options, System.err).run();
  }

  @Test
  void everyFlowConvergesWithoutViolations() {
    Verdict v = report.verdict();
    assertThat(v.violations()).allSatisfy((k, n) -> assertThat(n).as(k).isZero());
    assertThat(v.converged()).isEqualTo(PAYMENTS);
    assertThat(v.byStatus().values().stream().mapToInt(Integer::intValue).sum())
        .isEqualTo(PAYMENTS);
    assertThat(v.passed()).isTrue();
  }

  @Test
  void faultsActuallyHappenedAndEndedInEveryTerminalKind() {
    Verdict v = report.verdict();
    assertThat(v.byStatus()).containsKeys("BIZ_SUCCESS", "PAY_FAIL", "REFUNDED");
    assertThat(report.faultSummary()).doesNotContain("worker crashes 0,");
  }

  @Test
  void manualReviewIsTheException() {
    assertThat(report.verdict().manualReview()).isLessThan(PAYMENTS / 200);
  }

  @Test
  void jsonCarriesTheDocumentedKeys() {
    Verdict v = report.verdict();
    JsonNode json = JsonMapper.builder().build().readTree(v.toJson());
    assertThat(VerdictJsonTest.names(json))
        .containsExactly(
            "payments", "converged", "byStatus", "manualReview", "violations", "wallClockMs");
    assertThat(json.get("payments").intValue()).isEqualTo(PAYMENTS);
    assertThat(json.get("converged").intValue()).isEqualTo(v.converged());
    assertThat(json.get("manualReview").intValue()).isEqualTo(v.manualReview());
    assertThat(json.get("wallClockMs").longValue()).isEqualTo(v.wallClockMs());
    v.byStatus().forEach((k, n) -> assertThat(json.get("byStatus").get(k).intValue()).isEqualTo(n));
    for (String key :
        List.of(
            "doubleCharge",
            "refundAfterBizSuccess",
            "missedRefund",
            "notConverged",
            "illegalTransition")) {
      assertThat(json.get("violations").get(key).intValue()).as(key).isZero();
    }
  }

  @Test
  void csvFilesAloneProveTheInvariants() throws IOException {
    List<Map<String, String>> flows = csv(out.resolve("flows.csv"));
    List<Map<String, String>> history = csv(out.resolve("history.csv"));
    List<Map<String, String>> ledger = csv(out.resolve("wallet-ledger.csv"));
    List<Map<String, String>> grants = csv(out.resolve("business-ledger.csv"));
    assertThat(flows).hasSize(PAYMENTS);

    Map<String, Integer> charges = new HashMap<>();
    Map<String, Integer> refunds = new HashMap<>();
    for (Map<String, String> e : ledger) {
      (e.get("kind").equals("CHARGE") ? charges : refunds)
          .merge(e.get("order_no"), 1, Integer::sum);
    }
    assertThat(charges.values()).allMatch(n -> n == 1);
    assertThat(refunds.values()).allMatch(n -> n == 1);

    Map<String, String> grantedTo = new HashMap<>();
    for (Map<String, String> g : grants) {
      String goal = g.get("user_id") + "/" + g.get("scene") + "/" + g.get("biz_key");
      assertThat(grantedTo.put(goal, g.get("attributed_order_no"))).as("granted twice").isNull();
    }

    int refundedSeen = 0;
    for (Map<String, String> f : flows) {
      String trade = f.get("trade_order_no");
      String goal = f.get("user_id") + "/" + f.get("scene") + "/" + f.get("biz_key");
      boolean charged = charges.containsKey(trade);
      boolean refunded = refunds.containsKey(f.get("refund_order_no"));
      boolean grantedHere = trade.equals(grantedTo.get(goal));
      boolean review = Boolean.parseBoolean(f.get("manual_review"));
      String status = f.get("status");
      assertThat(TERMINAL.contains(status) || review).as("converged " + f).isTrue();
      switch (status) {
        case "BIZ_SUCCESS" ->
            assertThat(charged && grantedHere && !refunded).as(f.toString()).isTrue();
        case "REFUNDED" -> {
          refundedSeen++;
          assertThat(charged && refunded && !grantedHere).as(f.toString()).isTrue();
        }
        case "PAY_FAIL", "CLOSED" -> assertThat(charged && !review).as(f.toString()).isFalse();
        default -> assertThat(review).as(f.toString()).isTrue();
      }
      if (charged && !grantedHere) {
        assertThat(status.equals("REFUNDED") || review).as("missed refund " + f).isTrue();
      }
    }
    assertThat(refundedSeen).isPositive();

    for (Map<String, String> h : history) {
      assertThat(TERMINAL.contains(h.get("from_status")))
          .as("left a terminal state " + h)
          .isFalse();
    }
  }

  /** A deliberately naive CSV reader (the export quotes only fields with commas or quotes). */
  private static List<Map<String, String>> csv(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file);
    String[] header = lines.get(0).split(",", -1);
    List<Map<String, String>> rows = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.split(",", -1);
      Map<String, String> row = new HashMap<>();
      for (int i = 0; i < header.length; i++) {
        row.put(header[i], i < cells.length ? cells[i] : "");
      }
      rows.add(row);
    }
    return rows;
  }
}
