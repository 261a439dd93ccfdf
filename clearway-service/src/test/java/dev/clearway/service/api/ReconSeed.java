package dev.clearway.service.api;

import dev.clearway.store.testing.TestDatabase;
import dev.clearway.store.testing.TestSql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;

/** Differences written straight into recon_difference, as a reconciliation run records them. */
final class ReconSeed {
  private ReconSeed() {}

  /** Empties the reconciliation tables and restarts their ids. */
  static void reset() {
    TestDatabase.get()
        .truncate(
            "recon_audit",
            "recon_command",
            "recon_difference_history",
            "recon_difference",
            "recon_run",
            "payment_settlement_history",
            "payment_settlement",
            "statement_line_agreed",
            "statement_line",
            "statement_file");
  }

  /** One difference to seed. */
  record Row(
      String account,
      String kind,
      String tradeOrderNo,
      Long statementAmount,
      Long localAmount,
      String currency,
      String confidence,
      String state,
      Instant foundAt) {

    static Row ticket(String account, String kind, String tradeOrderNo, long amount) {
      return new Row(
          account,
          kind,
          tradeOrderNo,
          amount,
          null,
          "CNY",
          "NONE",
          "NEEDS_PERSON",
          Instant.now().minusSeconds(3600));
    }

    Row state(String s) {
      return new Row(
          account,
          kind,
          tradeOrderNo,
          statementAmount,
          localAmount,
          currency,
          confidence,
          s,
          foundAt);
    }

    Row confidence(String c) {
      return new Row(
          account, kind, tradeOrderNo, statementAmount, localAmount, currency, c, state, foundAt);
    }

    Row local(Long amount) {
      return new Row(
          account,
          kind,
          tradeOrderNo,
          statementAmount,
          amount,
          currency,
          confidence,
          state,
          foundAt);
    }

    Row foundAt(Instant at) {
      return new Row(
          account,
          kind,
          tradeOrderNo,
          statementAmount,
          localAmount,
          currency,
          confidence,
          state,
          at);
    }
  }

  /** Inserts the difference (version 0) and its creation history row; answers its id. */
  static long insert(Row r) {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                """
                INSERT INTO recon_difference (account_ref, statement_day, kind, identity,
                       trade_order_no, statement_amount, local_amount, currency, confidence,
                       state, repair_kind, detail, must_confirm, evidence, actionable_at, run_id,
                       last_run_id, version, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'NEEDS_PERSON', ?, 'what the PSP says',
                        '{"statement":{"amount":1}}', ?, 1, 1, 0, ?, ?)
                RETURNING id
                """)) {
      Timestamp at = Timestamp.from(r.foundAt());
      ps.setString(1, r.account());
      ps.setObject(2, LocalDate.of(2026, 11, 30));
      ps.setString(3, r.kind());
      ps.setString(4, r.tradeOrderNo());
      ps.setString(5, r.tradeOrderNo());
      ps.setObject(6, r.statementAmount());
      ps.setObject(7, r.localAmount());
      ps.setString(8, r.currency());
      ps.setString(9, r.confidence());
      ps.setString(10, r.state());
      ps.setString(11, "seeded " + r.kind());
      ps.setTimestamp(12, at);
      ps.setTimestamp(13, at);
      ps.setTimestamp(14, at);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        long id = rs.getLong(1);
        RunningApi.execute(
            "INSERT INTO recon_difference_history (difference_id, version, from_state, to_state,"
                + " actor, detail, at) VALUES ("
                + id
                + ", 0, NULL, '"
                + r.state()
                + "', 'test', 'found', now())");
        return id;
      }
    } catch (SQLException e) {
      throw new IllegalStateException("seed difference", e);
    }
  }

  static String text(String sql) {
    try (Connection c = TestDatabase.get().dataSource().getConnection()) {
      return TestSql.text(c, sql);
    } catch (SQLException e) {
      throw new IllegalStateException(sql, e);
    }
  }
}
