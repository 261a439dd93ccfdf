package dev.clearway.store.channel;

import dev.clearway.store.Sql;
import dev.clearway.store.testing.FlowRowInsert;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import javax.sql.DataSource;

/** Rows of the channel tables for the console's store tests, written as the channel layer would. */
final class ConsoleChannelRows {
  static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  private static final DataSource DATA = TestDatabase.get().dataSource();

  private ConsoleChannelRows() {}

  /** Empties the channel tables and the flows. */
  static void clean() throws SQLException {
    TestDatabase.get().truncateChannelTables();
    TestDatabase.get().reset();
  }

  /** A closed flow whose trade order number is {@code tradeOrderNo}, owned by {@code merchant}. */
  static void flow(String merchant, String tradeOrderNo) throws SQLException {
    FlowRowInsert.of("goal-" + tradeOrderNo, 1, "CLOSED", Instant.now())
        .owner(merchant, 1, "renewal")
        .trade(tradeOrderNo)
        .money(1500, "EUR")
        .insert(DATA);
  }

  static void accounts() throws SQLException {
    exec(
        "INSERT INTO channel_account"
            + " (id, channel, account_ref, failure_domain, payment_methods, priority)"
            + " VALUES (1, 'stripe', 'acct_a', 'psp:stripe-a', 'card', 1),"
            + " (2, 'wechat', 'mch_b', 'psp:wechat', 'wallet', 2),"
            + " (3, 'stripe', 'acct_idle', 'psp:stripe-b', 'card', 3)");
  }

  static void order(String tradeOrderNo) throws SQLException {
    update(
        "INSERT INTO payment_order (trade_order_no, amount, currency, payment_method,"
            + " status, created_at, updated_at) VALUES (?, 1500, 'EUR', 'card', 'OPEN', ?, ?)",
        tradeOrderNo,
        Sql.ts(NOW.minusSeconds(3600)),
        Sql.ts(NOW.minusSeconds(3600)));
  }

  static void attempt(
      long id,
      String tradeOrderNo,
      int seq,
      long account,
      String origin,
      Long previous,
      String status,
      Instant created)
      throws SQLException {
    update(
        "INSERT INTO payment_attempt (id, trade_order_no, seq, channel_account_id, origin,"
            + " previous_attempt_id, provider_idempotency_key, create_request_hash, status,"
            + " result_certainty, amount, currency, payment_method, created_at, updated_at)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'CERTAIN', 1500, 'EUR', 'pm_card_visa', ?, ?)",
        id,
        tradeOrderNo,
        seq,
        account,
        origin,
        previous,
        "key-" + id,
        "0".repeat(64),
        status,
        Sql.ts(created),
        Sql.ts(created));
  }

  static void evidence(
      long attemptId, String source, String operation, String certainty, Instant at)
      throws SQLException {
    update(
        "INSERT INTO provider_evidence (attempt_id, source, operation, certainty,"
            + " provider_status, request_id, raw_sha256, policy_version, observed_at)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, 'v7', ?)",
        attemptId,
        source,
        operation,
        certainty,
        "status_" + certainty,
        "req-" + attemptId + "-" + operation,
        "f".repeat(64),
        Sql.ts(at));
  }

  static void task(long attemptId, long account, String status, Instant created)
      throws SQLException {
    update(
        "INSERT INTO recovery_task (attempt_id, channel_account_id, status, strategy, due_at,"
            + " attempt_count, policy_version, last_error, created_at, updated_at)"
            + " VALUES (?, ?, ?, 'QUERY', ?, 3, 'v7', 'psp_timeout', ?, ?)",
        attemptId,
        account,
        status,
        Sql.ts(created.plusSeconds(30)),
        Sql.ts(created),
        Sql.ts(created));
  }

  static void compensation(long attemptId, String tradeOrderNo, String status) throws SQLException {
    update(
        "INSERT INTO attempt_compensation (attempt_id, trade_order_no, refund_no, amount, status,"
            + " reason, last_error, due_at, created_at, updated_at)"
            + " VALUES (?, ?, ?, 1500, ?, 'LATE_SUCCESS', ?, ?, ?, ?)",
        attemptId,
        tradeOrderNo,
        "CR" + attemptId,
        status,
        "MANUAL".equals(status) ? "refund_abnormal" : null,
        Sql.ts(NOW),
        Sql.ts(NOW.minusSeconds(attemptId)),
        Sql.ts(NOW));
  }

  static void update(String statement, Object... params) throws SQLException {
    try (Connection c = DATA.getConnection();
        PreparedStatement ps = c.prepareStatement(statement)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      ps.executeUpdate();
    }
  }

  static void exec(String statement) throws SQLException {
    try (Connection c = DATA.getConnection();
        Statement st = c.createStatement()) {
      st.execute(statement);
    }
  }
}
