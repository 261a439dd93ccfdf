package dev.clearway.psp.stripe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import dev.clearway.core.channel.spi.AttemptRef;
import dev.clearway.core.channel.spi.CreatePayment;
import dev.clearway.core.channel.spi.RefundCall;
import dev.clearway.core.statement.Statement;
import dev.clearway.core.statement.StatementDownloadException;
import dev.clearway.core.statement.StatementDownloads;
import dev.clearway.core.statement.StatementFileRecord;
import dev.clearway.core.statement.StatementFileRecord.Status;
import dev.clearway.core.statement.StatementFormat;
import dev.clearway.core.statement.StatementImporter;
import dev.clearway.core.statement.StatementLine;
import dev.clearway.core.statement.StatementLineKind;
import dev.clearway.core.statement.StatementSources;
import dev.clearway.store.statement.JdbcStatementStore;
import dev.clearway.store.testing.TestDatabase;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The balance report downloaded over HTTP through Stripe's reporting API (a report run, then its
 * file with the secret key), parsed by the production parser and imported.
 */
class StripeStatementDownloadContractTest {
  private static final String ACCOUNT = "stripe-contract";
  private final StripeFixture stripe = new StripeFixture();
  private final DataSource ds = TestDatabase.get().dataSource();
  private final JdbcStatementStore store = new JdbcStatementStore(ds, Clock.systemUTC());
  private final StatementImporter importer =
      new StatementImporter(
          store, Map.of(StatementFormat.STRIPE_BALANCE, new StripeBalanceReportParser()));
  private final LocalDate today = LocalDate.now(ZoneOffset.UTC);
  private CreatePayment a;
  private CreatePayment b;
  private String idA;

  @BeforeEach
  void payAndRefund() throws Exception {
    try (Connection c = ds.getConnection();
        java.sql.Statement st = c.createStatement()) {
      st.execute("TRUNCATE statement_line, statement_file RESTART IDENTITY");
    }
    a = StripeFixture.payment("pm_card_visa", 2_000);
    b = StripeFixture.payment("pm_card_visa", 4_321);
    idA = stripe.adapter.create(a).providerPaymentId();
    stripe.adapter.create(b);
    stripe.adapter.create(StripeFixture.payment("pm_card_chargeDeclined", 700));
    AttemptRef refA = new AttemptRef(a.idempotencyKey(), a.merchantReference(), idA);
    stripe.adapter.refund(new RefundCall("rf_dl", refA, 500, 2_000, "EUR"));
  }

  @AfterEach
  void stop() {
    stripe.close();
  }

  @Test
  void theReportRunsFileParsesBackToTheLedger() throws Exception {
    assertThat(stripe.adapter.settlementReportAvailable()).isTrue();

    Statement report = stripe.adapter.downloadStatement(ACCOUNT, today);

    assertThat(report.format()).isEqualTo(StatementFormat.STRIPE_BALANCE);
    assertThat(report.expectedHash()).as("Stripe announces no hash").isNull();
    List<StatementLine> lines = new ArrayList<>();
    new StripeBalanceReportParser().parse(new ByteArrayInputStream(report.bytes()), lines::add);
    assertThat(lines.stream().filter(StatementLine::recordsMoney).toList())
        .extracting(StatementLine::kind, StatementLine::attemptKey, StatementLine::amount)
        .containsExactlyInAnyOrder(
            tuple(StatementLineKind.CHARGE, a.idempotencyKey(), 2_000L),
            tuple(StatementLineKind.CHARGE, b.idempotencyKey(), 4_321L),
            tuple(StatementLineKind.REFUND, a.idempotencyKey(), -500L));
    assertThat(report.bytes()).isEqualTo(stripe.sim.balanceReport(today));
  }

  @Test
  void aDayWithoutMovementsIsAnEmptyReport() throws Exception {
    Statement report = stripe.adapter.downloadStatement(ACCOUNT, today.minusDays(3));
    List<StatementLine> lines = new ArrayList<>();
    new StripeBalanceReportParser().parse(new ByteArrayInputStream(report.bytes()), lines::add);
    assertThat(lines).noneMatch(StatementLine::recordsMoney);
  }

  @Test
  void downloadsImportOnceAndAWrongKeyFailsWithItsReason() throws Exception {
    StatementDownloads downloads =
        new StatementDownloads(
            StatementSources.of(Map.of(ACCOUNT, stripe.adapter::downloadStatement)), importer);

    StatementFileRecord file = downloads.download(ACCOUNT, today);
    StatementFileRecord again = downloads.download(ACCOUNT, today);

    assertThat(file.status()).isEqualTo(Status.IMPORTED);
    assertThat(file.lineCount()).isEqualTo(4); // header and three movements
    assertThat(again.id()).isEqualTo(file.id());
    StripeAdapter wrongKey = new StripeAdapter(stripe.config().withSecretKey("sk_test_wrong"));
    StatementDownloads refused =
        new StatementDownloads(
            StatementSources.of(Map.of(ACCOUNT, wrongKey::downloadStatement)), importer);
    assertThatThrownBy(() -> refused.download(ACCOUNT, today))
        .isInstanceOf(StatementDownloadException.class)
        .hasMessageContaining("401")
        .hasMessageNotContaining("sk_test");
    assertThatThrownBy(() -> refused.download("another-account", today))
        .isInstanceOf(StatementDownloadException.class)
        .hasMessageContaining("no statement source");
  }

  @Test
  void aRunThatDoesNotSucceedInTimeFailsTheDownload() {
    StripeAdapter impatient =
        new StripeAdapter(stripe.config().withReportWait(Duration.ofMillis(1)));
    // The simulator's run is pending for its async delay (200 ms), longer than the wait.
    assertThatThrownBy(() -> impatient.downloadStatement(ACCOUNT, today))
        .hasMessageContaining("still pending");
  }

  @Test
  void theFileIsServedOnlyWithTheKeyAndOnlyFromAStripeRoot() throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    URI runs = stripe.sim.baseUrl().resolve("/v1/reporting/report_runs");
    HttpResponse<String> unauthenticated =
        client.send(
            HttpRequest.newBuilder(runs)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("report_type=x"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(unauthenticated.statusCode()).isEqualTo(401);
    StripeHttp http =
        new StripeHttp(stripe.config(), tools.jackson.databind.json.JsonMapper.builder().build());
    String otherHost =
        "http://127.0.0.2:" + stripe.sim.baseUrl().getPort() + "/v1/files/f/contents";
    assertThatThrownBy(() -> http.download(otherHost)).hasMessageContaining("not on a Stripe root");
  }
}
