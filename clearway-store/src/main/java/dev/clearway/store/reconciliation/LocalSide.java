package dev.clearway.store.reconciliation;

import dev.clearway.core.reconciliation.port.LocalDay;
import dev.clearway.core.reconciliation.port.LocalFacts;
import dev.clearway.store.SqlDialect;
import javax.sql.DataSource;

/**
 * The local side of reconciliation: the lookups of one payment and the account-day's movements. One
 * database joins the payment tables in SQL ({@link JdbcLocalFacts}); a sharded layout reads them
 * table by table, by key ({@link ShardedLocalFacts}).
 */
public interface LocalSide extends LocalFacts, LocalDay {

  /**
   * The local side for {@code dialect}.
   *
   * @param walletAccount the account of flows paid through the plain wallet (no channel attempt)
   */
  static LocalSide of(DataSource dataSource, SqlDialect dialect, String walletAccount) {
    return dialect.sharded()
        ? new ShardedLocalFacts(dataSource, walletAccount)
        : new JdbcLocalFacts(dataSource, dialect, walletAccount);
  }
}
