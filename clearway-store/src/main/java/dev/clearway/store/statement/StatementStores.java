package dev.clearway.store.statement;

import dev.clearway.core.statement.StatementStore;
import dev.clearway.store.MysqlDialect;
import dev.clearway.store.SqlDialect;
import java.time.Clock;
import javax.sql.DataSource;

/** The statement store of a database: {@link JdbcStatementStore} in its dialect. */
public final class StatementStores {
  private StatementStores() {}

  public static StatementStore create(DataSource dataSource, SqlDialect dialect, Clock clock) {
    return dialect instanceof MysqlDialect
        ? JdbcStatementStore.onMysql(dataSource, clock)
        : new JdbcStatementStore(dataSource, clock);
  }
}
