package dev.clearway.store.channel;

import dev.clearway.core.channel.port.WebhookInbox;
import dev.clearway.store.Sql;
import java.time.Instant;
import javax.sql.DataSource;

/** {@code channel_webhook_inbox} on PostgreSQL: one claim per account and event id. */
public final class JdbcWebhookInbox implements WebhookInbox {

  private final Sql sql;

  public JdbcWebhookInbox(DataSource dataSource) {
    this.sql = new Sql(dataSource);
  }

  /** Inserts the claim, or takes over an unfinished one older than {@code staleBefore}. */
  @Override
  public boolean claimDelivery(Delivery d, Instant now, Instant staleBefore) {
    return sql.update(
            """
            INSERT INTO channel_webhook_inbox (channel_account_id, channel, event_id, received_at)
            VALUES (?, ?, ?, ?)
            ON CONFLICT (channel_account_id, event_id) DO UPDATE
              SET received_at = EXCLUDED.received_at
            WHERE channel_webhook_inbox.done_at IS NULL
              AND channel_webhook_inbox.received_at < ?
            """,
            ps -> {
              ps.setLong(1, d.channelAccountId());
              ps.setString(2, d.channel());
              ps.setString(3, Sql.truncate(d.eventId(), 128));
              ps.setObject(4, Sql.ts(now));
              ps.setObject(5, Sql.ts(staleBefore));
            })
        == 1;
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
