package dev.clearway.store.channel;

import dev.clearway.core.channel.port.WebhookInbox;
import dev.clearway.store.PostgresDialect;
import dev.clearway.store.Sql;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import javax.sql.DataSource;

/** {@code channel_webhook_inbox}: one claim per account and event id. */
public final class JdbcWebhookInbox implements WebhookInbox {

  private final DataSource dataSource;
  private final SqlDialect dialect;
  private final Sql sql;

  /** An inbox on PostgreSQL. */
  public JdbcWebhookInbox(DataSource dataSource) {
    this(dataSource, new PostgresDialect());
  }

  public JdbcWebhookInbox(DataSource dataSource, SqlDialect dialect) {
    this.dataSource = dataSource;
    this.dialect = dialect;
    this.sql = new Sql(dataSource);
  }

  /** Inserts the claim, or takes over an unfinished one older than {@code staleBefore}. */
  @Override
  public boolean claimDelivery(Delivery d, Instant now, Instant staleBefore) {
    String eventId = Sql.truncate(d.eventId(), 128);
    try (Connection c = dataSource.getConnection()) {
      try (PreparedStatement ps =
          c.prepareStatement(
              dialect.insertIfAbsent(
                  """
                  INSERT INTO channel_webhook_inbox (channel_account_id, channel, event_id,
                                                     received_at)
                  VALUES (?, ?, ?, ?)
                  """,
                  "channel_account_id, event_id"))) {
        ps.setLong(1, d.channelAccountId());
        ps.setString(2, d.channel());
        ps.setString(3, eventId);
        ps.setObject(4, Sql.ts(now));
        if (dialect.executeIfAbsent(ps)) {
          return true;
        }
      }
      // Race: two deliveries take over one stale claim at once; the CAS on received_at lets one
      // through, the other finds the claim fresh again.
      try (PreparedStatement ps =
          c.prepareStatement(
              """
              UPDATE channel_webhook_inbox SET received_at = ?
               WHERE channel_account_id = ? AND event_id = ?
                 AND done_at IS NULL AND received_at < ?
              """)) {
        ps.setObject(1, Sql.ts(now));
        ps.setLong(2, d.channelAccountId());
        ps.setString(3, eventId);
        ps.setObject(4, Sql.ts(staleBefore));
        return ps.executeUpdate() == 1;
      }
    } catch (SQLException e) {
      throw new StoreException("claim webhook delivery", e);
    }
  }

  @Override
  public void finishDelivery(Delivery d, Instant now) {
    sql.update(
        """
        UPDATE channel_webhook_inbox SET done_at = ?
        WHERE channel_account_id = ? AND event_id = ?
        """,
        ps -> {
          ps.setObject(1, Sql.ts(now));
          ps.setLong(2, d.channelAccountId());
          ps.setString(3, Sql.truncate(d.eventId(), 128));
        });
  }

  @Override
  public void releaseDelivery(Delivery d) {
    sql.update(
        """
        DELETE FROM channel_webhook_inbox
        WHERE channel_account_id = ? AND event_id = ? AND done_at IS NULL
        """,
        ps -> {
          ps.setLong(1, d.channelAccountId());
          ps.setString(2, Sql.truncate(d.eventId(), 128));
        });
  }
}
