package dev.clearway.store.channel;

import dev.clearway.core.channel.port.ChannelStores;
import dev.clearway.store.PostgresDialect;
import dev.clearway.store.SqlDialect;
import javax.sql.DataSource;

/** The channel layer's stores on one database. */
public final class JdbcChannelStores {

  private JdbcChannelStores() {}

  /** The stores on PostgreSQL. */
  public static ChannelStores create(DataSource dataSource) {
    return create(dataSource, new PostgresDialect());
  }

  /** The stores on the database of {@code dialect}; every one of them works on the MySQL family. */
  public static ChannelStores create(DataSource dataSource, SqlDialect dialect) {
    return new ChannelStores(
        new JdbcChannelAccounts(dataSource, dialect),
        new JdbcPaymentOrders(dataSource, dialect),
        new JdbcAttemptStore(dataSource, dialect),
        new JdbcRecoveryTaskStore(dataSource, dialect),
        new JdbcEvidenceStore(dataSource),
        new JdbcCompensationStore(dataSource, dialect),
        new JdbcChannelRefundStore(dataSource, dialect),
        new JdbcWebhookInbox(dataSource, dialect));
  }
}
