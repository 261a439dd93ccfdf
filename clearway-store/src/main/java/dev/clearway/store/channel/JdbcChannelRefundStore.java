package dev.clearway.store.channel;

import dev.clearway.core.channel.port.ChannelRefundStore;
import dev.clearway.store.PostgresDialect;
import dev.clearway.store.Sql;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * {@code channel_refund} on PostgreSQL and the MySQL family: a flow refund's provider refund number
 * and generation.
 */
public final class JdbcChannelRefundStore implements ChannelRefundStore {

  private final DataSource dataSource;
  private final SqlDialect dialect;
  private final Sql sql;

  /** A store on PostgreSQL. */
  public JdbcChannelRefundStore(DataSource dataSource) {
    this(dataSource, new PostgresDialect());
  }

  public JdbcChannelRefundStore(DataSource dataSource, SqlDialect dialect) {
    this.dataSource = dataSource;
    this.dialect = dialect;
    this.sql = new Sql(dataSource);
  }

  @Override
  public ChannelRefund channelRefund(
      String refundOrderNo, long attemptId, long amount, Instant now) {
    // Present already: the refund keeps the provider number and generation it has.
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                dialect.insertIfAbsent(
                    """
                    INSERT INTO channel_refund (refund_order_no, attempt_id, provider_refund_no,
                      generation, amount, created_at, updated_at)
                    VALUES (?, ?, ?, 1, ?, ?, ?)
                    """,
                    "refund_order_no"))) {
      ps.setString(1, refundOrderNo);
      ps.setLong(2, attemptId);
      ps.setString(3, refundOrderNo);
      ps.setLong(4, amount);
      ps.setObject(5, Sql.ts(now));
      ps.setObject(6, Sql.ts(now));
      dialect.executeIfAbsent(ps);
    } catch (SQLException e) {
      throw new StoreException("channel refund", e);
    }
    return findChannelRefund(refundOrderNo).orElseThrow();
  }

  @Override
  public Optional<ChannelRefund> findChannelRefund(String refundOrderNo) {
    return sql
        .query(
            "SELECT * FROM channel_refund WHERE refund_order_no = ?",
            ps -> ps.setString(1, refundOrderNo),
            rs ->
                new ChannelRefund(
                    rs.getString("refund_order_no"),
                    rs.getLong("attempt_id"),
                    rs.getString("provider_refund_no"),
                    rs.getInt("generation"),
                    rs.getLong("amount")))
        .stream()
        .findFirst();
  }

  @Override
  public boolean nextRefundGeneration(ChannelRefund r, Instant now) {
    int next = r.generation() + 1;
    return sql.update(
            """
            UPDATE channel_refund SET generation = ?, provider_refund_no = ?, updated_at = ?
            WHERE refund_order_no = ? AND generation = ?
            """,
            ps -> {
              ps.setInt(1, next);
              ps.setString(2, r.refundOrderNo() + "-" + next);
              ps.setObject(3, Sql.ts(now));
              ps.setString(4, r.refundOrderNo());
              ps.setInt(5, r.generation());
            })
        == 1;
  }
}
