package dev.clearway.store.statement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.statement.Statement;
import dev.clearway.core.statement.StatementFileRecord;
import dev.clearway.core.statement.StatementFileRecord.Status;
import dev.clearway.core.statement.StatementFormat;
import dev.clearway.core.statement.StatementImporter;
import dev.clearway.core.statement.StatementStore;
import dev.clearway.store.testing.TestDatabase;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag(TestDatabase.MYSQL_FAMILY)
class JdbcStatementStoreTest {
  private static final LocalDate DAY = LocalDate.of(2026, 12, 1);
  private static final String ACCOUNT = "wallet-main";

  private final DataSource ds = TestDatabase.get().dataSource();
  private final StatementStore store =
      StatementStores.create(ds, TestDatabase.get().dialect(), Clock.systemUTC());
  private final StatementImporter importer =
      new StatementImporter(store, Map.of(StatementFormat.WALLET_CSV, new WalletCsvParser()));

  @BeforeEach
  void reset() {
    TestDatabase.get().truncate("statement_line_agreed", "statement_line", "statement_file");
  }

  static byte[] resource(String name) throws Exception {
    try (InputStream in = JdbcStatementStoreTest.class.getResourceAsStream(name)) {
      return in.readAllBytes();
    }
  }

  private StatementFileRecord importWallet(String resource) throws Exception {
    return importer.importStatement(
        ACCOUNT, DAY, Statement.unhashed(StatementFormat.WALLET_CSV, resource(resource)));
  }

  @Test
  void importsEveryLineUnchangedWithTheFileHash() throws Exception {
    byte[] bytes = resource("/statement/wallet-2026-12-01.csv");
    StatementFileRecord file = importWallet("/statement/wallet-2026-12-01.csv");

    assertThat(file.status()).isEqualTo(Status.IMPORTED);
    assertThat(file.lineCount()).isEqualTo(4);
    assertThat(file.sha256())
        .isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)));
    String rejoined = String.join("\n", rawLines(file.id())) + "\n";
    assertThat(rejoined).isEqualTo(new String(bytes, StandardCharsets.UTF_8));
    assertThat(query("SELECT CONCAT(kind, ':', amount) FROM statement_line WHERE line_no = 4"))
        .containsExactly("REFUND:-250");
  }

  @Test
  void reImportingTheSameBytesChangesNothing() throws Exception {
    StatementFileRecord first = importWallet("/statement/wallet-2026-12-01.csv");
    StatementFileRecord again = importWallet("/statement/wallet-2026-12-01.csv");

    assertThat(again).isEqualTo(first);
    assertThat(query("SELECT count(*) FROM statement_file")).containsExactly("1");
    assertThat(query("SELECT count(*) FROM statement_line")).containsExactly("4");
  }

  @Test
  void aHashThatIsNotTheAnnouncedOneIsRefusedWithNothingImported() throws Exception {
    byte[] bytes = resource("/statement/wallet-2026-12-01.csv");
    String wrong = "0".repeat(40);

    StatementFileRecord file =
        importer.importStatement(
            ACCOUNT, DAY, new Statement(StatementFormat.WALLET_CSV, bytes, wrong, "SHA1"));

    assertThat(file.status()).isEqualTo(Status.REFUSED);
    assertThat(file.expectedHash()).isEqualTo(wrong);
    assertThat(file.refusedReason()).contains("not the announced hash");
    assertThat(file.refusedLine()).isZero();
    assertThat(query("SELECT count(*) FROM statement_line")).containsExactly("0");
    assertThat(store.current(ACCOUNT, DAY)).isEmpty();
  }

  @Test
  void theAnnouncedHashThatMatchesIsImported() throws Exception {
    byte[] bytes = resource("/statement/wallet-2026-12-01.csv");
    String sha1 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes));

    StatementFileRecord file =
        importer.importStatement(
            ACCOUNT, DAY, new Statement(StatementFormat.WALLET_CSV, bytes, sha1, "SHA1"));

    assertThat(file.status()).isEqualTo(Status.IMPORTED);
    assertThat(file.expectedHash()).isEqualTo(sha1);
  }

  @Test
  void aMalformedLineRefusesTheFileNamingTheLineAndKeepsTheFileInForce() throws Exception {
    StatementFileRecord good = importWallet("/statement/wallet-2026-12-01.csv");

    StatementFileRecord bad = importWallet("/statement/wallet-bad-amount.csv");

    assertThat(bad.status()).isEqualTo(Status.REFUSED);
    assertThat(bad.refusedLine()).isEqualTo(3);
    assertThat(bad.refusedReason()).contains("amount");
    assertThat(rawLines(bad.id())).isEmpty();
    assertThat(store.current(ACCOUNT, DAY)).map(StatementFileRecord::id).contains(good.id());
    assertThat(importWallet("/statement/wallet-bad-amount.csv").id()).isEqualTo(bad.id());
  }

  @Test
  void aDifferentValidFileSupersedesAndBothStayOnRecord() throws Exception {
    StatementFileRecord first = importWallet("/statement/wallet-2026-12-01.csv");
    StatementFileRecord second = importWallet("/statement/wallet-2026-12-01-corrected.csv");

    StatementFileRecord old = store.find(first.id()).orElseThrow();
    assertThat(old.status()).isEqualTo(Status.SUPERSEDED);
    assertThat(old.supersededBy()).isEqualTo(second.id());
    assertThat(second.status()).isEqualTo(Status.IMPORTED);
    assertThat(second.lineCount()).isEqualTo(5);
    assertThat(rawLines(first.id())).hasSize(4);
    assertThat(rawLines(second.id())).hasSize(5);
    assertThat(store.current(ACCOUNT, DAY)).map(StatementFileRecord::id).contains(second.id());
  }

  @Test
  void aFileLargerThanOneBatchIsStoredWhole() throws Exception {
    StringBuilder csv = new StringBuilder(WalletCsvParser.HEADER).append('\n');
    int charges = StatementLineBatch.BATCH * 2 + 37;
    for (int i = 0; i < charges; i++) {
      csv.append("charge,T-")
          .append(i)
          .append(",T-")
          .append(i)
          .append(",100,CNY,")
          .append("2026-12-01T10:00:00Z\n");
    }
    StatementFileRecord file =
        importer.importStatement(
            ACCOUNT,
            DAY,
            Statement.unhashed(
                StatementFormat.WALLET_CSV, csv.toString().getBytes(StandardCharsets.UTF_8)));

    assertThat(file.lineCount()).isEqualTo(charges + 1);
    assertThat(query("SELECT sum(amount) FROM statement_line"))
        .containsExactly(String.valueOf(100L * charges));
  }

  /** statement_line has no foreign key: the import alone keeps every line with its file. */
  @Test
  void noLineIsEverLeftWithoutItsFile() throws Exception {
    importWallet("/statement/wallet-2026-12-01.csv");
    importWallet("/statement/wallet-2026-12-01-corrected.csv");
    StringBuilder csv = new StringBuilder(WalletCsvParser.HEADER).append('\n');
    for (int i = 0; i < StatementLineBatch.BATCH * 2 + 5; i++) {
      csv.append("charge,M-").append(i).append(",M-").append(i);
      csv.append(",100,CNY,2026-12-01T10:00:00Z\n");
    }
    csv.append("charge,M-bad,M-bad,one hundred,CNY,2026-12-01T10:00:00Z\n");
    StatementFileRecord refused =
        importer.importStatement(
            ACCOUNT,
            DAY,
            Statement.unhashed(
                StatementFormat.WALLET_CSV, csv.toString().getBytes(StandardCharsets.UTF_8)));

    assertThat(refused.status()).isEqualTo(Status.REFUSED);
    assertThat(rawLines(refused.id())).isEmpty();
    assertThat(
            query(
                "SELECT count(*) FROM statement_line l"
                    + " WHERE NOT EXISTS (SELECT 1 FROM statement_file f WHERE f.id = l.file_id)"))
        .containsExactly("0");
    assertThat(query("SELECT count(*) FROM statement_line")).containsExactly("9");
  }

  @Test
  void concurrentImportsOfOneDayLeaveExactlyOneFileInForce() throws Exception {
    byte[] a = resource("/statement/wallet-2026-12-01.csv");
    byte[] b = resource("/statement/wallet-2026-12-01-corrected.csv");
    for (int round = 0; round < 5; round++) {
      reset();
      java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(2);
      java.util.concurrent.ExecutorService pool =
          java.util.concurrent.Executors.newFixedThreadPool(2);
      try {
        List<java.util.concurrent.Future<StatementFileRecord>> runs = new ArrayList<>();
        for (byte[] bytes : List.of(a, b)) {
          runs.add(
              pool.submit(
                  () -> {
                    start.await();
                    return importer.importStatement(
                        ACCOUNT, DAY, Statement.unhashed(StatementFormat.WALLET_CSV, bytes));
                  }));
        }
        for (var run : runs) {
          assertThat(run.get().status()).isEqualTo(Status.IMPORTED);
        }
      } finally {
        pool.shutdown();
      }
      assertThat(query("SELECT status FROM statement_file ORDER BY id"))
          .containsExactly("SUPERSEDED", "IMPORTED");
      assertThat(
              query(
                  "SELECT count(*) FROM statement_file f JOIN statement_file g"
                      + " ON f.superseded_by = g.id AND g.status = 'IMPORTED'"))
          .containsExactly("1");
    }
  }

  private List<String> rawLines(long fileId) throws SQLException {
    return query("SELECT raw FROM statement_line WHERE file_id = " + fileId + " ORDER BY line_no");
  }

  private List<String> query(String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = ds.getConnection();
        java.sql.Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }
}
