package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.statement.Statement;
import dev.clearway.core.statement.StatementFileRecord;
import dev.clearway.core.statement.StatementFormat;
import dev.clearway.core.statement.StatementImporter;
import dev.clearway.core.statement.StatementSource;
import dev.clearway.core.statement.StatementSources;
import dev.clearway.store.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Reconciliation on demand over real HTTP: {@code POST /ops/reconciliation/runs} downloads and
 * imports the account's statement when it has a source (a corrupted file is refused and counted),
 * or reconciles the file imported by hand; the difference it finds waits for a person, shows in the
 * lists, the summary and the metrics, and a second run finds nothing new.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class ReconRunHttpTest {
  private static final LocalDate DAY = LocalDate.of(2026, 11, 30);
  private static final String WALLET_FILE =
      "kind,order_no,trade_order_no,amount,currency,at\n"
          + "charge,T_NOBODY_1,T_NOBODY_1,4200,CNY,2026-11-30T08:00:00Z\n";
  private static final String BAD_FILE =
      "kind,order_no,trade_order_no,amount,currency,at\n"
          + "charge,T_NOBODY_2,T_NOBODY_2,-5,CNY,2026-11-30T08:00:00Z\n";

  private static RunningApi api;

  @BeforeAll
  static void start() {
    StatementSource good =
        (account, day) ->
            Statement.unhashed(
                StatementFormat.WALLET_CSV, WALLET_FILE.getBytes(StandardCharsets.UTF_8));
    StatementSource bad =
        (account, day) ->
            Statement.unhashed(
                StatementFormat.WALLET_CSV, BAD_FILE.getBytes(StandardCharsets.UTF_8));
    StatementSources sources =
        StatementSources.of(Map.of("acct_download", good, "acct_corrupt", bad));
    api =
        RunningApi.startWith(
            Map.of("statementSources", sources), "clearway.reconciliation.gauge-interval=1h");
  }

  @AfterAll
  static void stop() {
    api.close();
  }

  @BeforeEach
  void reset() {
    RunningApi.resetDatabase();
    ReconSeed.reset();
  }

  private RunningApi.Answer run(String key, String account, String date) {
    return api.call("POST", "/ops/reconciliation/runs")
        .bearer(key)
        .contentType("application/json")
        .body("{\"account\":\"" + account + "\",\"date\":\"" + date + "\"}")
        .send();
  }

  private JsonNode get(String path) {
    RunningApi.Answer a = api.call("GET", path).bearer(RunningApi.OPERATOR_KEY).send();
    assertThat(a.status()).as(a.toString()).isEqualTo(200);
    return a.json();
  }

  @Test
  void aStatementImportedByHandIsReconciledAndItsUnknownLineWaitsForAPerson() {
    StatementFileRecord file =
        api.bean(StatementImporter.class)
            .importStatement(
                "acct_hand",
                DAY,
                Statement.unhashed(
                    StatementFormat.WALLET_CSV, WALLET_FILE.getBytes(StandardCharsets.UTF_8)));
    assertThat(file.status()).isEqualTo(StatementFileRecord.Status.IMPORTED);

    RunningApi.Answer answer = run(RunningApi.OPERATOR_KEY, "acct_hand", DAY.toString());
    assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
    JsonNode outcome = answer.json();
    assertThat(outcome.get("statement").isNull()).isTrue();
    assertThat(outcome.get("run").get("status").asString()).isEqualTo("DONE");
    assertThat(outcome.get("run").get("fileId").asLong()).isEqualTo(file.id());
    assertThat(outcome.get("run").get("counts").get("newDifferences").asLong()).isEqualTo(1);

    JsonNode found = get("/ops/reconciliation/differences?account=acct_hand").get("items");
    assertThat(found).hasSize(1);
    JsonNode d = found.get(0);
    assertThat(d.get("kind").asString()).isEqualTo("UNKNOWN_STATEMENT_LINE");
    assertThat(d.get("state").asString()).isEqualTo("NEEDS_PERSON");
    assertThat(d.get("statementAmountMinor").asLong()).isEqualTo(4200);
    assertThat(get("/ops/reconciliation/tickets?account=acct_hand").get("items")).hasSize(1);

    JsonNode detail = get("/ops/reconciliation/differences/" + d.get("id").asLong());
    // Both sides' evidence as recorded: the statement's line names the order.
    assertThat(detail.get("evidence").toString()).contains("T_NOBODY_1").contains("4200");
    assertThat(detail.get("history").size()).isGreaterThanOrEqualTo(2);

    JsonNode runs = get("/ops/reconciliation/runs");
    assertThat(runs.get(0).get("account").asString()).isEqualTo("acct_hand");
    assertThat(runs.get(0).has("leaseOwner")).isFalse();

    String metrics =
        api.call("GET", "/actuator/prometheus").bearer(RunningApi.OPERATOR_KEY).send().body();
    assertThat(metrics)
        .contains("clearway_recon_differences{class=\"UNKNOWN_STATEMENT_LINE\"} 1.0")
        .contains("clearway_recon_tickets 1.0")
        .contains(
            "clearway_recon_differences_amount{class=\"UNKNOWN_STATEMENT_LINE\",currency=\"CNY\"}"
                + " 4200.0");

    // Again: the same difference, nothing new.
    JsonNode again = run(RunningApi.APPROVER_KEY, "acct_hand", DAY.toString()).json();
    assertThat(again.get("run").get("status").asString()).isEqualTo("DONE");
    assertThat(again.get("run").get("counts").get("newDifferences").asLong()).isZero();
    assertThat(get("/ops/reconciliation/differences?account=acct_hand").get("items")).hasSize(1);
  }

  @Test
  void aDownloadedStatementIsImportedThenReconciled() {
    JsonNode outcome = run(RunningApi.OPERATOR_KEY, "acct_download", DAY.toString()).json();
    assertThat(outcome.get("statement").get("status").asString()).isEqualTo("IMPORTED");
    assertThat(outcome.get("importError").isNull()).isTrue();
    assertThat(outcome.get("run").get("status").asString()).isEqualTo("DONE");
    assertThat(
            ReconSeed.text(
                "SELECT count(*) FROM statement_file WHERE account_ref = 'acct_download'"))
        .isEqualTo("1");
    assertThat(get("/ops/reconciliation/differences?account=acct_download").get("items"))
        .hasSize(1);
  }

  @Test
  void aCorruptedStatementIsRefusedCountedAndImportsNothing() {
    JsonNode outcome = run(RunningApi.OPERATOR_KEY, "acct_corrupt", DAY.toString()).json();
    JsonNode statement = outcome.get("statement");
    assertThat(statement.get("status").asString()).isEqualTo("REFUSED");
    assertThat(statement.get("refusedLine").asLong()).isEqualTo(2);
    assertThat(statement.get("refusedReason").asString()).contains("amount");
    assertThat(
            ReconSeed.text(
                "SELECT count(*) FROM statement_line l JOIN statement_file f ON f.id = l.file_id"
                    + " WHERE f.account_ref = 'acct_corrupt'"))
        .isEqualTo("0");
    String metrics =
        api.call("GET", "/actuator/prometheus").bearer(RunningApi.OPERATOR_KEY).send().body();
    assertThat(metrics)
        .containsPattern(
            "clearway_recon_import_failures_total\\{[^}]*reason=\"refused\"[^}]*} [1-9]");
  }

  @Test
  void aRunNeedsAnAccountAndAPastDate() {
    RunningApi.Answer noAccount =
        api.call("POST", "/ops/reconciliation/runs")
            .bearer(RunningApi.OPERATOR_KEY)
            .contentType("application/json")
            .body("{\"date\":\"2026-11-30\"}")
            .send();
    assertThat(noAccount.status()).isEqualTo(400);
    assertThat(noAccount.code()).isEqualTo("missing_field");
    assertThat(run(RunningApi.OPERATOR_KEY, "acct_hand", "30/11/2026").code())
        .isEqualTo("invalid_date");
    assertThat(run(RunningApi.OPERATOR_KEY, "acct_hand", "2999-01-01").code())
        .isEqualTo("invalid_date");
    assertThat(ReconSeed.text("SELECT count(*) FROM recon_run")).isEqualTo("0");
    assertThat(Optional.ofNullable(ReconSeed.text("SELECT count(*) FROM statement_file")))
        .contains("0");
  }
}
