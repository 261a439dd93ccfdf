package dev.clearway.psp.wechat;

import static dev.clearway.psp.wechat.WechatHarness.number;
import static dev.clearway.psp.wechat.WechatHarness.payment;
import static dev.clearway.psp.wechat.WechatHarness.ref;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.spi.RefundCall;
import dev.clearway.core.statement.Statement;
import dev.clearway.core.statement.StatementFileRecord;
import dev.clearway.core.statement.StatementFileRecord.Status;
import dev.clearway.core.statement.StatementFormat;
import dev.clearway.core.statement.StatementImporter;
import dev.clearway.core.statement.StatementLine;
import dev.clearway.core.statement.StatementLineKind;
import dev.clearway.store.statement.JdbcStatementStore;
import dev.clearway.store.testing.TestDatabase;
import java.io.ByteArrayInputStream;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
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

/** The trade bill downloaded over HTTP from the simulator, parsed and imported. */
class WechatStatementContractTest {
  private static final String ACCOUNT = "wechat-" + WechatHarness.MCHID;
  private final WechatHarness h = WechatHarness.start();
  private final DataSource ds = TestDatabase.get().dataSource();
  private final JdbcStatementStore store = new JdbcStatementStore(ds, Clock.systemUTC());
  private final StatementImporter importer =
      new StatementImporter(
          store, Map.of(StatementFormat.WECHAT_TRADEBILL, new WechatTradeBillParser()));
  private String first;
  private String second;
  private LocalDate day;

  @BeforeEach
  void payAndRefund() throws Exception {
    try (Connection c = ds.getConnection();
        java.sql.Statement st = c.createStatement()) {
      st.execute("TRUNCATE statement_line, statement_file RESTART IDENTITY");
    }
    first = number("pay");
    second = number("pay");
    h.adapter.create(payment(first, 1_250));
    h.adapter.create(payment(second, 9_999));
    WechatHarness.await(
        () -> h.charges(first).get(0).charged() && h.charges(second).get(0).charged(),
        Duration.ofSeconds(3));
    h.adapter.refund(new RefundCall(number("rf"), ref(first), 250, 1_250, "CNY"));
    WechatHarness.await(() -> h.charges(first).get(0).refunded() == 250, Duration.ofSeconds(3));
    day = LocalDate.now(ZoneOffset.ofHours(8));
  }

  @AfterEach
  void stop() {
    h.close();
  }

  @Test
  void theDownloadedBillCarriesItsSha1AndParsesBackToTheLedger() throws Exception {
    assertThat(h.adapter.settlementReportAvailable()).isTrue();
    Statement bill = h.adapter.downloadStatement(ACCOUNT, day);

    assertThat(bill.format()).isEqualTo(StatementFormat.WECHAT_TRADEBILL);
    assertThat(bill.hashType()).isEqualTo("SHA1");
    assertThat(bill.expectedHash())
        .isEqualTo(
            HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bill.bytes())));
    List<StatementLine> lines = new ArrayList<>();
    new WechatTradeBillParser().parse(new ByteArrayInputStream(bill.bytes()), lines::add);
    List<StatementLine> money = lines.stream().filter(StatementLine::recordsMoney).toList();
    assertThat(money)
        .extracting(StatementLine::kind, StatementLine::attemptKey, StatementLine::amount)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(StatementLineKind.CHARGE, first, 1_250L),
            org.assertj.core.groups.Tuple.tuple(StatementLineKind.CHARGE, second, 9_999L),
            org.assertj.core.groups.Tuple.tuple(StatementLineKind.REFUND, first, -250L));
    assertThat(money.get(0).pspReference()).isEqualTo(h.charges(first).get(0).providerPaymentId());
    assertThat(money.get(0).tradeOrderNo()).isEqualTo("PO-" + first);
    assertThat(money.get(1).fee()).isEqualTo(60);
  }

  @Test
  void importIsIdempotentAndACorruptedBillIsRefusedWithNothingImported() throws Exception {
    Statement bill = h.adapter.downloadStatement(ACCOUNT, day);

    StatementFileRecord file = importer.importStatement(ACCOUNT, day, bill);
    StatementFileRecord again = importer.importStatement(ACCOUNT, day, bill);

    assertThat(file.status()).isEqualTo(Status.IMPORTED);
    assertThat(file.lineCount()).isEqualTo(6);
    assertThat(again.id()).isEqualTo(file.id());
    byte[] corrupted = bill.bytes().clone();
    corrupted[corrupted.length - 3] ^= 1;
    StatementFileRecord refused =
        importer.importStatement(
            ACCOUNT,
            day,
            new Statement(bill.format(), corrupted, bill.expectedHash(), bill.hashType()));
    assertThat(refused.status()).isEqualTo(Status.REFUSED);
    assertThat(refused.refusedReason()).contains("SHA1");
    assertThat(count("SELECT count(*) FROM statement_line WHERE file_id = " + refused.id()))
        .isZero();
    assertThat(count("SELECT count(*) FROM statement_line")).isEqualTo(6);
    assertThat(store.current(ACCOUNT, day)).map(StatementFileRecord::id).contains(file.id());
  }

  @Test
  void theBillIsServedOnlyToASignedRequest() throws Exception {
    java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
    for (String path : List.of("/v3/bill/tradebill", "/v3/billdownload/file")) {
      java.net.http.HttpResponse<String> unsigned =
          client.send(
              java.net.http.HttpRequest.newBuilder(
                      h.sim.baseUrl().resolve(path + "?bill_date=" + day))
                  .GET()
                  .build(),
              java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(unsigned.statusCode()).as(path).isEqualTo(401);
      assertThat(unsigned.body()).doesNotContain("SUCCESS");
    }
  }

  private long count(String sql) throws Exception {
    try (Connection c = ds.getConnection();
        java.sql.Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
