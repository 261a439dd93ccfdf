package dev.clearway.store.channel;

import dev.clearway.core.channel.port.ChannelRefundStore;
import dev.clearway.store.Sql;
import java.time.Instant;
import java.util.Optional;
import javax.sql.DataSource;

/** {@code channel_refund} on PostgreSQL: a flow refund's provider refund number and generation. */
public final class JdbcChannelRefundStore implements ChannelRefundStore {

  private final Sql sql;

  public JdbcChannelRefundStore(DataSource dataSource) {
    this.sql = new Sql(dataSource);
  }

  @Override
  public ChannelRefund channelRefund(
      String refundOrderNo, long attemptId, long amount, Instant now) {
    sql.update(
        """
        INSERT INTO channel_refund (refund_order_no, attempt_id, provider_refund_no, generation,
          amount, created_at, updated_at)
        VALUES (?, ?, ?, 1, ?, ?, ?)
        ON CONFLICT (refund_order_no) DO NOTHING
        """,
        ps -> {
          ps.setString(1, refundOrderNo);
          ps.setLong(2, attemptId);
          ps.setString(3, refundOrderNo);
          ps.setLong(4, amount);
          ps.setObject(5, Sql.ts(now));
          ps.setObject(6, Sql.ts(now));
        });
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
