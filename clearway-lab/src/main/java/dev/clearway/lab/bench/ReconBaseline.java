package dev.clearway.lab.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.postgresql.PGConnection;

/**
 * What the database alone does with the same statement, measured in the same run: {@code COPY} of
 * the file into a bare table, then one join against the flows that returns the lines without a
 * matching flow or with another amount or currency. The time covers both, in one transaction.
 */
final class ReconBaseline {
  private static final String JOIN =
      """
      SELECT s.trade_order_no, s.amount, f.amount
      FROM bench_statement_raw s
      LEFT JOIN pay_flow f ON f.trade_order_no = s.trade_order_no
      WHERE f.id IS NULL OR f.amount <> s.amount OR f.currency <> s.currency
      """;

  /** The baseline's time and the lines its join returned. */
  record Result(long millis, long copied, long differing) {}

  private ReconBaseline() {}

  /** Runs over a connection of its own, without the pool's timeouts. */
  static Result run(String jdbcUrl, Path file) throws SQLException {
    try (Connection c = DriverManager.getConnection(jdbcUrl)) {
      return run(c, file);
    }
  }

  private static Result run(Connection c, Path file) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute("DROP TABLE IF EXISTS bench_statement_raw");
      st.execute(
          "CREATE TABLE bench_statement_raw (kind TEXT, order_no TEXT, trade_order_no TEXT,"
              + " amount BIGINT, currency TEXT, at TIMESTAMPTZ)");
    }
    long t0 = System.nanoTime();
    c.setAutoCommit(false);
    long copied;
    try (InputStream in = Files.newInputStream(file)) {
      copied =
          c.unwrap(PGConnection.class)
              .getCopyAPI()
              .copyIn("COPY bench_statement_raw FROM STDIN WITH (FORMAT csv, HEADER true)", in);
    } catch (IOException e) {
      throw new UncheckedIOException("copy " + file, e);
    }
    long differing = 0;
    try (PreparedStatement ps = c.prepareStatement(JOIN);
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        differing++;
      }
    }
    c.commit();
    long millis = (System.nanoTime() - t0) / 1_000_000;
    c.setAutoCommit(true);
    try (Statement st = c.createStatement()) {
      st.execute("DROP TABLE bench_statement_raw");
    }
    return new Result(millis, copied, differing);
  }
}
