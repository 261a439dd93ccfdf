package dev.clearway.lab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.lab.ClearwayMain;
import dev.clearway.store.testing.TestDatabase;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReconcileCommandTest {
  private static final String CSV =
      "kind,order_no,trade_order_no,amount,currency,at\n"
          + "charge,T-1,T-1,1250,CNY,2026-12-01T02:00:00Z\n"
          + "refund,R-1,T-1,250,CNY,2026-12-01T09:00:00Z\n";

  @TempDir Path dir;

  @BeforeEach
  void reset() throws Exception {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        Statement st = c.createStatement()) {
      st.execute("TRUNCATE statement_line, statement_file RESTART IDENTITY");
    }
  }

  private record Run(int exit, String out) {}

  private Run reconcile(Path file) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit =
        ClearwayMain.run(
            new String[] {
              "reconcile",
              "--account",
              "wallet-main",
              "--date",
              "2026-12-01",
              "--file",
              file.toString(),
              "--format",
              "wallet-csv",
              "--jdbc-url",
              TestDatabase.get().database().jdbcUrl()
            },
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(exit, out.toString(StandardCharsets.UTF_8).strip());
  }

  @Test
  void importsAFileAndAnswersTheSameFileForTheSameBytes() throws Exception {
    Path file = Files.writeString(dir.resolve("wallet.csv"), CSV);

    Run first = reconcile(file);
    Run again = reconcile(file);

    assertThat(first.exit()).isZero();
    assertThat(first.out())
        .startsWith("{\"fileId\":1,\"status\":\"IMPORTED\",\"lines\":3,\"sha256\":\"")
        .doesNotContain("\n");
    assertThat(again.out()).isEqualTo(first.out());
  }

  @Test
  void aMalformedFileIsRefusedNamingTheLine() throws Exception {
    Path file =
        Files.writeString(dir.resolve("bad.csv"), CSV.replace("R-1,T-1,250", "R-1,T-1,2.5"));

    Run run = reconcile(file);

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.out())
        .contains("\"status\":\"REFUSED\"")
        .contains("\"refusedLine\":3")
        .contains("\"refusedReason\":\"amount is not whole minor units\"");
  }
}
