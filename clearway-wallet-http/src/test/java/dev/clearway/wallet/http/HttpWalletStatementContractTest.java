package dev.clearway.wallet.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import dev.clearway.core.flow.port.WalletGateway.RefundRequest;
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
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimWallet;
import dev.clearway.sim.http.SimWalletServer;
import dev.clearway.store.statement.JdbcStatementStore;
import dev.clearway.store.statement.WalletCsvParser;
import dev.clearway.store.testing.TestDatabase;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.sql.Connection;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The wallet's daily statement downloaded over real HTTP from the simulated wallet, its announced
 * SHA-256 checked, parsed by the production parser and imported.
 */
class HttpWalletStatementContractTest {
  private static final String ACCOUNT = "wallet";
  private static final LocalDate DAY = LocalDate.of(2026, 12, 1);

  private final Clock clock = Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC);
  private final SimWallet wallet = new SimWallet(FaultPlan.none(), clock);
  private final DataSource ds = TestDatabase.get().dataSource();
  private final JdbcStatementStore store = new JdbcStatementStore(ds, Clock.systemUTC());
  private final StatementImporter importer =
      new StatementImporter(store, Map.of(StatementFormat.WALLET_CSV, new WalletCsvParser()));
  private SimWalletServer server;
  private HttpWalletGateway gateway;

  @BeforeEach
  void start() throws Exception {
    try (Connection c = ds.getConnection();
        java.sql.Statement st = c.createStatement()) {
      st.execute("TRUNCATE statement_line, statement_file RESTART IDENTITY");
    }
    server =
        SimWalletServer.start(
            wallet,
            FaultPlan.none(),
            SimWalletServer.Options.defaults().withStatementCurrency("EUR"));
    gateway = new HttpWalletGateway(HttpWalletConfig.of(server.baseUrl()));
    gateway.pay(new ChargeRequest("T-100", 7L, 1_500, "EUR"));
    gateway.pay(new ChargeRequest("T-200", 8L, 820, "EUR"));
    gateway.refund(new RefundRequest("R-100", "T-100", 500, "EUR"));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void theDownloadedStatementCarriesItsSha256AndParsesBackToTheLedger() throws Exception {
    Statement statement = gateway.downloadStatement(ACCOUNT, DAY);

    assertThat(statement.format()).isEqualTo(StatementFormat.WALLET_CSV);
    assertThat(statement.hashType()).isEqualTo("SHA256");
    assertThat(statement.expectedHash())
        .isEqualTo(
            HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(statement.bytes())));
    List<StatementLine> lines = new ArrayList<>();
    new WalletCsvParser().parse(new ByteArrayInputStream(statement.bytes()), lines::add);
    assertThat(lines.stream().filter(StatementLine::recordsMoney))
        .extracting(
            StatementLine::kind,
            StatementLine::tradeOrderNo,
            StatementLine::refundOrderNo,
            StatementLine::amount,
            StatementLine::currency)
        // Lines follow the wallet's ledger, whose charges settle in the background: any order.
        .containsExactlyInAnyOrder(
            tuple(StatementLineKind.CHARGE, "T-100", null, 1_500L, "EUR"),
            tuple(StatementLineKind.CHARGE, "T-200", null, 820L, "EUR"),
            tuple(StatementLineKind.REFUND, "T-100", "R-100", -500L, "EUR"));
    Statement nextDay = gateway.downloadStatement(ACCOUNT, DAY.plusDays(1));
    List<StatementLine> none = new ArrayList<>();
    new WalletCsvParser().parse(new ByteArrayInputStream(nextDay.bytes()), none::add);
    assertThat(none).noneMatch(StatementLine::recordsMoney);
  }

  @Test
  void downloadsImportOnceAndADamagedTransferIsRefused() {
    StatementDownloads downloads =
        new StatementDownloads(
            StatementSources.of(Map.of(ACCOUNT, gateway::downloadStatement)), importer);

    StatementFileRecord file = downloads.download(ACCOUNT, DAY);
    StatementFileRecord again = downloads.download(ACCOUNT, DAY);

    assertThat(file.status()).isEqualTo(Status.IMPORTED);
    assertThat(file.lineCount()).isEqualTo(4);
    assertThat(again.id()).isEqualTo(file.id());
    StatementDownloads damaged =
        new StatementDownloads(
            StatementSources.of(
                Map.of(
                    ACCOUNT,
                    (account, day) -> {
                      Statement s = gateway.downloadStatement(account, day);
                      byte[] bytes = s.bytes().clone();
                      bytes[bytes.length - 2] ^= 1;
                      return new Statement(s.format(), bytes, s.expectedHash(), s.hashType());
                    })),
            importer);
    StatementFileRecord refused = damaged.download(ACCOUNT, DAY);
    assertThat(refused.status()).isEqualTo(Status.REFUSED);
    assertThat(refused.refusedReason()).contains("SHA256");
    assertThat(store.current(ACCOUNT, DAY)).map(StatementFileRecord::id).contains(file.id());
  }

  @Test
  void aWalletThatCannotBeReachedFailsTheDownloadWithItsReason() {
    server.close();
    StatementDownloads downloads =
        new StatementDownloads(
            StatementSources.of(Map.of(ACCOUNT, gateway::downloadStatement)), importer);

    assertThatThrownBy(() -> downloads.download(ACCOUNT, DAY))
        .isInstanceOf(StatementDownloadException.class)
        .hasMessageContaining("statement download failed");
  }

  @Test
  void aBadDayIsRefusedByTheWalletAndADigestIsReadOnlyWhenWellFormed() throws Exception {
    HttpResponse<String> bad =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(server.baseUrl() + "/v1/statements/2026-13-01"))
                    .GET()
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(HttpWalletGateway.sha256Hex("sha-256=:not base64!:")).isNull();
    assertThat(HttpWalletGateway.sha256Hex("sha-512=:AAAA:")).isNull();
    assertThat(HttpWalletGateway.sha256Hex(null)).isNull();
  }
}
