package dev.clearway.lab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.lab.ClearwayMain;
import dev.clearway.store.Sql;
import dev.clearway.store.testing.TestDatabase;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code clearway reconcile} end to end on the embedded PostgreSQL: a wallet statement imported by
 * hand, the day reconciled against the flows, the due repairs run, and the JSON line read back.
 */
class ReconcileCommandTest {
  private static final String ACCOUNT = "wallet-main";
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final LocalDate DAY = LocalDate.now(ZoneOffset.UTC).minusDays(3);
  private static final Instant T0 = DAY.atStartOfDay(ZoneOffset.UTC).toInstant();

  @TempDir Path dir;
  private final Sql sql = new Sql(TestDatabase.get().dataSource());

  @BeforeEach
  void reset() throws Exception {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        Statement st = c.createStatement()) {
      st.execute(
          "TRUNCATE recon_difference_history, recon_difference, recon_run,"
              + " payment_settlement_history, payment_settlement, statement_line_agreed, statement_line,"
              + " statement_file,"
              + " refund_order_history, refund_order, pay_flow_history, pay_flow_state, pay_flow_fact,"
              + " outbox_event"
              + " RESTART IDENTITY CASCADE");
    }
  }

  private record Run(int exit, String out) {
    JsonNode json() {
      List<String> lines = out.lines().toList();
      return JSON.readTree(lines.get(lines.size() - 1));
    }
  }

  private Run reconcile(String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "reconcile",
                "--account",
                ACCOUNT,
                "--date",
                DAY.toString(),
                "--wallet-account",
                ACCOUNT,
                "--jdbc-url",
                TestDatabase.get().database().jdbcUrl()));
    args.addAll(List.of(extra));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int exit =
        ClearwayMain.run(
            args.toArray(String[]::new),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    return new Run(exit, out.toString(StandardCharsets.UTF_8).strip());
  }

  private Path statement(String... lines) throws Exception {
    return Files.writeString(
        dir.resolve("wallet.csv"),
        "kind,order_no,trade_order_no,amount,currency,at\n" + String.join("\n", lines) + "\n");
  }

  private static String charge(String trade, long amount, Instant at) {
    return "charge," + trade + "," + trade + "," + amount + ",CNY," + at;
  }

  /** A plain-wallet flow (no channel attempt) of {@code amount}; PAYED at {@code payedAt}. */
  private void flow(String trade, String status, long amount, Instant payedAt) {
    long id =
        sql.query(
                "INSERT INTO pay_flow (user_id, scene, biz_key, attempt_no, trade_order_no,"
                    + " refund_order_no, status, version, amount, currency, biz_deadline_time,"
                    + " next_retry_time, created_at, updated_at)"
                    + " VALUES (7, 'order', ?, 1, ?, ?, ?, ?, ?, 'CNY', ?, ?, ?, ?) RETURNING id",
                ps -> {
                  ps.setString(1, "goal-" + trade);
                  ps.setString(2, trade);
                  ps.setString(3, "r_" + trade);
                  ps.setString(4, status);
                  ps.setLong(5, status.equals("PAYING") ? 1 : 3);
                  ps.setLong(6, amount);
                  ps.setObject(7, Sql.ts(payedAt.plusSeconds(3600)));
                  ps.setObject(8, Sql.ts(payedAt.plusSeconds(60)));
                  ps.setObject(9, Sql.ts(payedAt.minusSeconds(30)));
                  ps.setObject(10, Sql.ts(payedAt.plusSeconds(5)));
                },
                rs -> rs.getLong(1))
            .get(0);
    if (!status.equals("PAYING")) {
      sql.update(
          "INSERT INTO pay_flow_history (flow_id, biz_key, attempt_no, trade_order_no,"
              + " from_status, to_status, version, trigger_source, created_at)"
              + " VALUES (?, ?, 1, ?, 'PAYING', 'PAYED', 2, 'CALLBACK', ?)",
          ps -> {
            ps.setLong(1, id);
            ps.setString(2, "goal-" + trade);
            ps.setString(3, trade);
            ps.setObject(4, Sql.ts(payedAt));
          });
    }
  }

  private String column(String sqlText, String trade) {
    List<String> found = sql.query(sqlText, ps -> ps.setString(1, trade), rs -> rs.getString(1));
    return found.isEmpty() ? null : found.get(0);
  }

  @Test
  void importsReconcilesAndRepairsTheDay() throws Exception {
    flow("T-1", "BIZ_SUCCESS", 1250, T0.plusSeconds(3600));
    flow("T-2", "PAYING", 800, T0.plusSeconds(7200));
    flow("T-3", "BIZ_SUCCESS", 300, T0.plusSeconds(10_800));
    Path file =
        statement(
            charge("T-1", 1250, T0.plusSeconds(3600)),
            charge("T-2", 800, T0.plusSeconds(7200)),
            charge("T-9", 999, T0.plusSeconds(9000)));

    Run run = reconcile("--file", file.toString(), "--format", "wallet-csv");

    assertThat(run.exit()).isZero();
    JsonNode json = run.json();
    assertThat(json.get("status").asString()).isEqualTo("IMPORTED");
    assertThat(json.get("lines").longValue()).isEqualTo(4);
    assertThat(json.get("run").get("outcome").asString()).isEqualTo("DONE");
    assertThat(json.get("run").get("lines").longValue()).isEqualTo(3);
    assertThat(json.get("run").get("newDifferences").longValue()).isEqualTo(3);
    JsonNode byClass = json.get("differencesByClass");
    assertThat(byClass.get("CHARGED_LOCAL_PAYING").longValue()).isEqualTo(1);
    assertThat(byClass.get("UNKNOWN_STATEMENT_LINE").longValue()).isEqualTo(1);
    assertThat(byClass.get("BIZ_SUCCESS_WITHOUT_CHARGE").longValue()).isEqualTo(1);
    assertThat(byClass.size()).isEqualTo(3);
    assertThat(json.get("repairs").get("autoRepaired").intValue()).isEqualTo(1);
    assertThat(json.get("repairs").get("tickets").intValue()).isEqualTo(2);
    // The PSP's charge of the PAYING flow settled it through the flow's own transition.
    assertThat(column("SELECT status FROM pay_flow WHERE trade_order_no = ?", "T-2"))
        .isEqualTo("PAYED");
    assertThat(
            column(
                "SELECT status FROM payment_settlement_in_effect WHERE trade_order_no = ?", "T-1"))
        .isEqualTo("SETTLED");
  }

  @Test
  void withoutAFileTheFileInForceIsReconciledAgainAndNothingNewIsFound() throws Exception {
    flow("T-1", "BIZ_SUCCESS", 1250, T0.plusSeconds(3600));
    Path file =
        statement(
            charge("T-1", 1250, T0.plusSeconds(3600)), charge("T-9", 999, T0.plusSeconds(9000)));
    Run first = reconcile("--file", file.toString(), "--format", "wallet-csv");

    Run again = reconcile();

    assertThat(first.exit()).isZero();
    assertThat(again.exit()).isZero();
    assertThat(again.json().get("fileId").longValue())
        .isEqualTo(first.json().get("fileId").longValue());
    assertThat(again.json().get("sha256").asString())
        .isEqualTo(first.json().get("sha256").asString());
    assertThat(again.json().get("run").get("id").longValue())
        .isGreaterThan(first.json().get("run").get("id").longValue());
    assertThat(again.json().get("run").get("newDifferences").longValue()).isZero();
    assertThat(again.json().get("differencesByClass").get("UNKNOWN_STATEMENT_LINE").longValue())
        .isEqualTo(1);
  }

  @Test
  void theSameBytesAnswerTheSameFile() throws Exception {
    Path file = statement(charge("T-1", 1250, T0.plusSeconds(3600)));

    Run first = reconcile("--file", file.toString(), "--format", "wallet-csv");
    Run again = reconcile("--file", file.toString(), "--format", "wallet-csv");

    assertThat(first.out())
        .startsWith("{\"fileId\":1,\"status\":\"IMPORTED\",\"lines\":2,\"sha256\":\"")
        .doesNotContain("\n");
    assertThat(again.json().get("fileId").longValue()).isEqualTo(1);
    assertThat(again.json().get("sha256")).isEqualTo(first.json().get("sha256"));
  }

  @Test
  void aMalformedFileIsRefusedNamingTheLineAndNothingIsReconciled() throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("bad.csv"),
            "kind,order_no,trade_order_no,amount,currency,at\n"
                + "charge,T-1,T-1,1250,CNY,2026-12-01T02:00:00Z\n"
                + "refund,R-1,T-1,2.5,CNY,2026-12-01T09:00:00Z\n");

    Run run = reconcile("--file", file.toString(), "--format", "wallet-csv");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.out())
        .contains("\"status\":\"REFUSED\"")
        .contains("\"refusedLine\":3")
        .contains("\"refusedReason\":\"amount is not whole minor units\"")
        .doesNotContain("\"run\"");
    assertThat(sql.query("SELECT count(*) FROM recon_run", ps -> {}, rs -> rs.getLong(1)))
        .containsExactly(0L);
  }

  @Test
  void withoutAFileInForceItSaysSoAndFails() {
    Run run = reconcile();

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.json().get("status").asString()).isEqualTo("NONE");
  }
}
