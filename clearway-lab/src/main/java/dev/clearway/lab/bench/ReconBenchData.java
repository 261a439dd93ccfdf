package dev.clearway.lab.bench;

import dev.clearway.store.Sql;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The untimed setup of {@code clearway bench reconcile}: the local payments as the engine would
 * have them after the channel layer charged them (a flow, its payment order and one attempt on the
 * bench's wallet account), inserted server-side with {@code generate_series}, and the wallet's CSV
 * statement of the day written to a file.
 */
final class ReconBenchData {
  /** Local payment {@code g}: BIZ_SUCCESS with a SUCCEEDED attempt, or PAYING with UNKNOWN. */
  private static final String FLOWS =
      """
      INSERT INTO pay_flow (user_id, scene, biz_key, attempt_no, channel, trade_order_no,
        refund_order_no, status, version, amount, currency, biz_deadline_time, next_retry_time,
        created_at, updated_at)
      SELECT g, 'bench', ? || '-' || g, 1, 'wallet', ? || '-' || g, 'r_' || ? || '-' || g,
        CASE WHEN g = ANY (?) THEN 'PAYING' ELSE 'BIZ_SUCCESS' END,
        CASE WHEN g = ANY (?) THEN 1 ELSE 3 END,
        100 + (g::bigint * 7919) % 100000, 'CNY', t + interval '1 hour', t + interval '1 day', t,
        t + interval '1 second'
      FROM generate_series(?::int, ?::int) g,
        LATERAL (SELECT ?::timestamptz + ((g - 1)::bigint * 86400000 / ?) * interval '1 millisecond')
          AS x(t)
      """;

  private static final String ORDERS =
      """
      INSERT INTO payment_order (trade_order_no, amount, currency, payment_method, status,
        created_at, updated_at)
      SELECT trade_order_no, amount, currency, 'wallet', 'OPEN', created_at, created_at
      FROM pay_flow WHERE trade_order_no = ANY (?)
      """;
  private static final String ATTEMPTS =
      """
      INSERT INTO payment_attempt (id, trade_order_no, seq, channel_account_id, origin,
        provider_idempotency_key, create_request_hash, provider_payment_id, status,
        result_certainty, amount, currency, payment_method, version, created_at, updated_at)
      SELECT nextval('payment_attempt_seq'), trade_order_no, 1, ?, 'INITIAL',
        'k-' || trade_order_no, md5(trade_order_no) || md5(trade_order_no),
        CASE WHEN status = 'PAYING' THEN NULL ELSE 'wp_' || trade_order_no END,
        CASE WHEN status = 'PAYING' THEN 'UNKNOWN' ELSE 'SUCCEEDED' END,
        CASE WHEN status = 'PAYING' THEN 'UNKNOWN' ELSE 'CONFIRMED_SUCCESS' END,
        amount, currency, 'wallet', CASE WHEN status = 'PAYING' THEN 1 ELSE 2 END,
        created_at, updated_at
      FROM pay_flow WHERE trade_order_no = ANY (?)
      """;

  private ReconBenchData() {}

  /** Payments inserted per transaction. */
  private static final int CHUNK = 50_000;

  /**
   * Inserts the plan's local payments, {@value #CHUNK} per transaction, over a connection of its
   * own without the pool's timeouts (an untimed setup on a loaded machine may take minutes);
   * returns the channel account's id.
   */
  static long insertLocal(String jdbcUrl, ReconBenchPlan plan) throws SQLException {
    try (Connection c = DriverManager.getConnection(jdbcUrl)) {
      long accountId = account(c, plan.account());
      c.setAutoCommit(false);
      Array paying = c.createArrayOf("int4", box(plan.stillPaying()));
      for (int lo = 1; lo <= plan.lines(); lo += CHUNK) {
        int hi = Math.min(plan.lines(), lo + CHUNK - 1);
        insertRange(c, plan, accountId, paying, lo, hi);
        c.commit();
      }
      c.setAutoCommit(true);
      try (Statement st = c.createStatement()) {
        st.execute("ANALYZE pay_flow_fact, pay_flow_state");
        st.execute("ANALYZE payment_attempt");
        st.execute("ANALYZE payment_order");
        st.execute("ANALYZE channel_account");
      }
      return accountId;
    }
  }

  private static void insertRange(
      Connection c, ReconBenchPlan plan, long accountId, Array paying, int lo, int hi)
      throws SQLException {
    String[] trades = new String[hi - lo + 1];
    for (int i = lo; i <= hi; i++) {
      trades[i - lo] = plan.tradeOrderNo(i);
    }
    Array tradeArray = c.createArrayOf("text", trades);
    update(
        c,
        FLOWS,
        trades.length,
        plan.prefix(),
        plan.prefix(),
        plan.prefix(),
        paying,
        paying,
        lo,
        hi,
        Sql.ts(plan.dayStart()),
        plan.lines());
    update(c, ORDERS, trades.length, tradeArray);
    update(c, ATTEMPTS, trades.length, accountId, tradeArray);
  }

  private static long account(Connection c, String accountRef) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO channel_account"
                + " (id, channel, account_ref, failure_domain, payment_methods, priority)"
                + " SELECT coalesce(max(id), 0) + 1, 'wallet', ?, 'bench:' || ?, 'wallet', 1000"
                + " FROM channel_account RETURNING id")) {
      ps.setString(1, accountRef);
      ps.setString(2, accountRef);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  private static void update(Connection c, String sql, long expected, Object... params)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      int count = ps.executeUpdate();
      if (count != expected) {
        throw new SQLException("expected " + expected + " rows, wrote " + count + ": " + sql);
      }
    }
  }

  private static Integer[] box(int[] values) {
    Integer[] out = new Integer[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = values[i];
    }
    return out;
  }

  /**
   * Writes the wallet's CSV statement: one charge line per payment in order, except that a missing
   * payment's slot holds a line no local row knows, and an amount mismatch says one unit more.
   */
  static void writeStatement(Path file, ReconBenchPlan plan) throws IOException {
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      w.write("kind,order_no,trade_order_no,amount,currency,at\n");
      int unknown = 0;
      for (int i = 1; i <= plan.lines(); i++) {
        String trade =
            plan.isMissing(i) ? plan.unknownTradeOrderNo(unknown++) : plan.tradeOrderNo(i);
        long amount = ReconBenchPlan.amount(i) + (plan.isAmountMismatch(i) ? 1 : 0);
        w.write("charge,");
        w.write(trade);
        w.write(',');
        w.write(trade);
        w.write(',');
        w.write(Long.toString(amount));
        w.write(",CNY,");
        w.write(plan.at(i).toString());
        w.write('\n');
      }
    }
  }
}
