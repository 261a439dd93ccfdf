package dev.clearway.store.statement;

import dev.clearway.core.statement.StatementStore;
import dev.clearway.store.MysqlDialect;
import dev.clearway.store.SqlDialect;
import java.time.Clock;
import javax.sql.DataSource;

/** The statement store of a database: {@link JdbcStatementStore} or {@link MysqlStatementStore}. */
public final class StatementStores {
  private StatementStores() {}

  public static StatementStore create(DataSource dataSource, SqlDialect dialect, Clock clock) {
    return dialect instanceof MysqlDialect
        ? new MysqlStatementStore(dataSource, clock)
        : new JdbcStatementStore(dataSource, clock);
  }
}
