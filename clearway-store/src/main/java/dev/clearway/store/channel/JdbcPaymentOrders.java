package dev.clearway.store.channel;

import dev.clearway.core.channel.domain.PaymentOrder;
import dev.clearway.core.channel.port.PaymentOrderStore;
import dev.clearway.store.PostgresDialect;
import dev.clearway.store.Sql;
import dev.clearway.store.SqlDialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * {@code payment_order} on PostgreSQL. The order's row lock serialises what happens to one order: a
 * close here, the insert of an attempt in {@link JdbcAttemptStore}.
 */
public final class JdbcPaymentOrders implements PaymentOrderStore {

  private static final int CODE_MAX = 64;

  private final Sql sql;
  private final SqlDialect dialect;
  private final ChannelTransaction tx;

  /** On PostgreSQL. */
  public JdbcPaymentOrders(DataSource dataSource) {
    this(dataSource, new PostgresDialect());
  }

  public JdbcPaymentOrders(DataSource dataSource, SqlDialect dialect) {
    this.sql = new Sql(dataSource);
    this.tx = new ChannelTransaction(dataSource);
    this.dialect = dialect;
  }

  @Override
  public PaymentOrder openOrder(PaymentOrder order, Instant now) {
    String insert =
        dialect.insertIfAbsent(
            """
            INSERT INTO payment_order
              (trade_order_no, amount, currency, payment_method, status, created_at, updated_at)
            VALUES (?, ?, ?, ?, 'OPEN', ?, ?)
            """,
            "trade_order_no");
    sql.transaction(
        "open payment order",
        c -> {
          try (PreparedStatement ps = c.prepareStatement(insert)) {
            ps.setString(1, order.tradeOrderNo());
            ps.setLong(2, order.amount());
            ps.setString(3, order.currency());
            ps.setString(4, order.paymentMethod());
            ps.setObject(5, Sql.ts(now));
            ps.setObject(6, Sql.ts(now));
            return dialect.executeIfAbsent(ps);
          }
        });
    return order(order.tradeOrderNo()).orElseThrow();
  }

  @Override
  public Optional<PaymentOrder> order(String tradeOrderNo) {
    if (dialect.namesNoRow(tradeOrderNo)) {
      return Optional.empty();
    }
    return sql
        .query(
            "SELECT * FROM payment_order WHERE trade_order_no = ?",
            ps -> ps.setString(1, tradeOrderNo),
            rs ->
                new PaymentOrder(
                    rs.getString("trade_order_no"),
                    rs.getLong("amount"),
                    rs.getString("currency"),
                    rs.getString("payment_method"),
                    "CLOSED".equals(rs.getString("status"))))
        .stream()
        .findFirst();
  }

  @Override
  public boolean closeOrder(String tradeOrderNo, String reason, Instant now) {
    return tx.run(
        "close order",
        c -> {
          lockOrInsert(c, tradeOrderNo, now);
          if (liveOrPaid(c, tradeOrderNo) > 0) {
            c.rollback();
            return false;
          }
          try (PreparedStatement ps =
              c.prepareStatement(
                  """
                  UPDATE payment_order SET status = 'CLOSED',
                    closed_reason = coalesce(closed_reason, ?), updated_at = ?
                  WHERE trade_order_no = ?
                  """)) {
            ps.setString(1, Sql.truncate(reason, CODE_MAX));
            ps.setObject(2, Sql.ts(now));
            ps.setString(3, tradeOrderNo);
            return ps.executeUpdate() == 1;
          }
        });
  }

  /** An order never opened is inserted (so that it closes); then its row is locked. */
  private void lockOrInsert(Connection c, String tradeOrderNo, Instant now) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            dialect.insertIfAbsent(
                """
                INSERT INTO payment_order (trade_order_no, amount, currency, payment_method,
                  status, closed_reason, created_at, updated_at)
                VALUES (?, 0, 'XXX', 'none', 'OPEN', NULL, ?, ?)
                """,
                "trade_order_no"))) {
      ps.setString(1, tradeOrderNo);
      ps.setObject(2, Sql.ts(now));
      ps.setObject(3, Sql.ts(now));
      dialect.executeIfAbsent(ps);
    }
    try (PreparedStatement ps =
        c.prepareStatement("SELECT 1 FROM payment_order WHERE trade_order_no = ? FOR UPDATE")) {
      ps.setString(1, tradeOrderNo);
      ps.executeQuery().close();
    }
  }

  /** How many attempts of the order are live or succeeded. */
  private static int liveOrPaid(Connection c, String tradeOrderNo) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            SELECT count(*) FROM payment_attempt WHERE trade_order_no = ?
              AND status IN ('CREATED', 'PENDING', 'UNKNOWN', 'SUCCEEDED')
            """)) {
      ps.setString(1, tradeOrderNo);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }
}
