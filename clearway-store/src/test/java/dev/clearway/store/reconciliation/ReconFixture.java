package dev.clearway.store.reconciliation;

import dev.clearway.store.MysqlDialect;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * Local rows (flows, their history, channel accounts, attempts, refund orders, compensations) and
 * statement files written as the engines and the importer leave them, on the test database, for the
 * reconciliation store tests.
 */
final class ReconFixture {
  static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");
  static final LocalDate DAY = LocalDate.of(2026, 12, 1);
  static final String WALLET = "wallet";

  final DataSource ds = TestDatabase.get().dataSource();
  final SqlDialect dialect = TestDatabase.get().dialect();

  /** The tables the tests write; on the MySQL family those of them that are base tables. */
  private static final List<String> TABLES =
      List.of(
          "recon_difference_history",
          "recon_difference",
          "recon_run",
          "payment_settlement_history",
          "payment_settlement",
          "statement_line_agreed",
          "statement_line",
          "statement_file",
          "attempt_compensation",
          "channel_refund",
          "recovery_task",
          "payment_attempt_history",
          "provider_evidence",
          "payment_attempt",
          "payment_order",
          "channel_account",
          "refund_order_history",
          "refund_order",
          "pay_flow_history",
          "pay_flow_state",
          "pay_flow_fact",
          "outbox_event");

  void reset() {
    if (!(dialect instanceof MysqlDialect)) {
      exec("TRUNCATE " + String.join(", ", TABLES) + " RESTART IDENTITY CASCADE");
      return;
    }
    // pay_flow is a table or a view over the flow's fact and state tables: empty what is a table.
    List<String> candidates = new ArrayList<>(TABLES);
    candidates.add("pay_flow");
    List<String> present =
        strings(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE()"
                + " AND table_type = 'BASE TABLE'");
    TestDatabase.get()
        .truncate(
            candidates.stream()
                .filter(t -> present.stream().anyMatch(t::equalsIgnoreCase))
                .toArray(String[]::new));
  }

  void account(long id, String ref) {
    update(
        "INSERT INTO channel_account (id, channel, account_ref, failure_domain, payment_methods,"
            + " priority) VALUES (?, 'stripe', ?, 'psp:a', 'card', 1)",
        id,
        ref);
  }

  /** A flow of 500 EUR minor units whose trade order is {@code trade}; its id. */
  long flow(String trade, String status, Instant updatedAt) {
    return insertId(
        "INSERT INTO pay_flow (user_id, scene, biz_key, attempt_no, trade_order_no,"
            + " refund_order_no, status, version, amount, currency, biz_deadline_time,"
            + " next_retry_time, created_at, updated_at)"
            + " VALUES (7, 'renewal', ?, 1, ?, ?, ?, 3, 500, 'EUR', ?, ?, ?, ?)",
        "goal-" + trade,
        trade,
        "r_" + trade,
        status,
        ts(T0.plusSeconds(3600)),
        ts(T0),
        ts(T0.minusSeconds(60)),
        ts(updatedAt));
  }

  /** The flow's PAYING -> PAYED history row at {@code at}. */
  void payedAt(long flowId, String trade, Instant at) {
    update(
        "INSERT INTO pay_flow_history (flow_id, biz_key, attempt_no, trade_order_no, from_status,"
            + " to_status, version, trigger_source, created_at)"
            + " VALUES (?, ?, 1, ?, 'PAYING', 'PAYED', 2, 'CALLBACK', ?)",
        flowId,
        "goal-" + trade,
        trade,
        ts(at));
  }

  /** An attempt of {@code trade} at the account, with its key and status; its id. */
  long attempt(String trade, int seq, long accountId, String key, String status, Instant at) {
    try (Connection c = ds.getConnection()) {
      try (PreparedStatement ps =
          c.prepareStatement(
              dialect.insertIfAbsentAnyKey(
                  "INSERT INTO payment_order (trade_order_no, amount, currency, payment_method,"
                      + " status, created_at, updated_at)"
                      + " VALUES (?, 500, 'EUR', 'card', 'OPEN', ?, ?)"))) {
        bind(ps, trade, ts(T0), ts(T0));
        dialect.executeIfAbsent(ps);
      }
      long id = dialect.nextId(c, "payment_attempt_seq");
      String previous =
          strings("SELECT max(id) FROM payment_attempt WHERE trade_order_no = ?", trade).get(0);
      try (PreparedStatement ps =
          c.prepareStatement(
              "INSERT INTO payment_attempt (id, trade_order_no, seq, channel_account_id, origin,"
                  + " previous_attempt_id, provider_idempotency_key, create_request_hash, status,"
                  + " result_certainty, amount, currency, payment_method, version, created_at,"
                  + " updated_at)"
                  + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'CONFIRMED_SUCCESS', 500, 'EUR', 'card',"
                  + " 2, ?, ?)")) {
        bind(
            ps,
            id,
            trade,
            seq,
            accountId,
            seq == 1 ? "INITIAL" : "FAILOVER",
            previous == null ? null : Long.valueOf(previous),
            key,
            "0".repeat(64),
            status,
            ts(T0),
            ts(at));
        ps.executeUpdate();
      }
      return id;
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  /** A refund order {@code a_trade_seq} of the flow; its id. */
  long refundOrder(
      long flowId, String trade, int seq, String kind, String status, long amount, Instant at) {
    return insertId(
        "INSERT INTO refund_order (flow_id, seq, trade_order_no, refund_no, amount, currency,"
            + " reason, requested_by, idem_key, request_hash, status, version, next_retry_time,"
            + " created_at, updated_at, kind)"
            + " VALUES (?, ?, ?, ?, ?, 'EUR', 'test', 'default', ?, ?, ?, 2, ?, ?, ?, ?)",
        flowId,
        seq,
        trade,
        "a_" + trade + "_" + seq,
        amount,
        "idem-" + trade + "-" + seq,
        "0".repeat(64),
        status,
        ts(at),
        ts(T0),
        ts(at),
        kind);
  }

  void compensation(long attemptId, String trade, String refundNo, String status, Instant at) {
    update(
        "INSERT INTO attempt_compensation (attempt_id, trade_order_no, refund_no, amount, status,"
            + " reason, due_at, created_at, updated_at)"
            + " VALUES (?, ?, ?, 500, ?, 'LATE_SUCCESS', ?, ?, ?)",
        attemptId,
        trade,
        refundNo,
        status,
        ts(at),
        ts(T0),
        ts(at));
  }

  /** A statement file of the account-day in the given status; its id. */
  long file(String account, LocalDate day, String status) {
    return insertId(
        "INSERT INTO statement_file (account_ref, statement_day, format, sha256, status,"
            + " refused_reason, imported_at) VALUES (?, ?, 'wallet-csv', ?, ?, ?, ?)",
        account,
        day,
        "a".repeat(64),
        status,
        "REFUSED".equals(status) ? "bad" : null,
        ts(T0));
  }

  /** A money line; {@code amount} signed as the merchant's balance moves. */
  void line(
      long fileId,
      long lineNo,
      String kind,
      String trade,
      String refundNo,
      String key,
      long amount,
      long fee,
      Instant at) {
    update(
        "INSERT INTO statement_line (file_id, line_no, raw, kind, trade_order_no, refund_order_no,"
            + " attempt_key, psp_reference, amount, fee, currency, at)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'EUR', ?)",
        fileId,
        lineNo,
        "raw " + lineNo,
        kind,
        trade,
        refundNo,
        key,
        "psp-" + fileId + "-" + lineNo,
        amount,
        fee,
        ts(at));
  }

  void textLine(long fileId, long lineNo) {
    update(
        "INSERT INTO statement_line (file_id, line_no, raw) VALUES (?, ?, 'header')",
        fileId,
        lineNo);
  }

  static Object ts(Instant at) {
    return at.atOffset(ZoneOffset.UTC);
  }

  void exec(String sql) {
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  int update(String sql, Object... args) {
    try (Connection c = ds.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      bind(ps, args);
      return ps.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  /** Runs a one-row INSERT; the generated id. */
  long insertId(String sql, Object... args) {
    try (Connection c = ds.getConnection();
        PreparedStatement ps = c.prepareStatement(sql, new String[] {"id"})) {
      bind(ps, args);
      ps.executeUpdate();
      try (ResultSet keys = ps.getGeneratedKeys()) {
        keys.next();
        return keys.getLong(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  long queryLong(String sql, Object... args) {
    return Long.parseLong(strings(sql, args).get(0));
  }

  List<String> strings(String sql, Object... args) {
    try (Connection c = ds.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      bind(ps, args);
      List<String> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString(1));
        }
      }
      return out;
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  private static void bind(PreparedStatement ps, Object... args) throws SQLException {
    for (int i = 0; i < args.length; i++) {
      ps.setObject(i + 1, args[i]);
    }
  }
}
