package dev.clearway.store.channel;

import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.port.ChannelAccountStore;
import dev.clearway.store.PostgresDialect;
import dev.clearway.store.Sql;
import dev.clearway.store.SqlDialect;
import java.util.List;
import javax.sql.DataSource;

/** {@code channel_account} on PostgreSQL. */
public final class JdbcChannelAccounts implements ChannelAccountStore {

  private final Sql sql;
  private final SqlDialect dialect;

  /** On PostgreSQL. */
  public JdbcChannelAccounts(DataSource dataSource) {
    this(dataSource, new PostgresDialect());
  }

  public JdbcChannelAccounts(DataSource dataSource, SqlDialect dialect) {
    this.sql = new Sql(dataSource);
    this.dialect = dialect;
  }

  @Override
  public void upsertAccount(ChannelAccount a) {
    sql.update(
        dialect.upsert(
            """
            INSERT INTO channel_account
              (id, channel, account_ref, failure_domain, payment_methods, priority, enabled)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            "id",
            "failure_domain, payment_methods, priority, enabled"),
        ps -> {
          ps.setLong(1, a.id());
          ps.setString(2, a.channel());
          ps.setString(3, a.accountRef());
          ps.setString(4, a.failureDomain());
          ps.setString(5, String.join(",", a.paymentMethods()));
          ps.setInt(6, a.priority());
          ps.setBoolean(7, a.enabled());
        });
  }

  @Override
  public List<ChannelAccount> accounts() {
    return sql.query(
        "SELECT * FROM channel_account ORDER BY priority, id", ps -> {}, ChannelRows::account);
  }
}
