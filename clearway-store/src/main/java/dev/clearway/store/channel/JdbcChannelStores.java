package dev.clearway.store.channel;

import dev.clearway.core.channel.port.ChannelStores;
import javax.sql.DataSource;

/** The channel layer's stores on one PostgreSQL database. */
public final class JdbcChannelStores {

  private JdbcChannelStores() {}

  public static ChannelStores create(DataSource dataSource) {
    return new ChannelStores(
        new JdbcChannelAccounts(dataSource),
        new JdbcPaymentOrders(dataSource),
        new JdbcAttemptStore(dataSource),
        new JdbcRecoveryTaskStore(dataSource),
        new JdbcEvidenceStore(dataSource),
        new JdbcCompensationStore(dataSource),
        new JdbcChannelRefundStore(dataSource),
        new JdbcWebhookInbox(dataSource));
  }
}
