package dev.clearway.store;

import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;

/**
 * Clearway's own migrations, tracked in their own history table so that an application that embeds
 * Clearway can keep its Flyway setup and its schema history untouched.
 */
public final class Schema {
  public static final String HISTORY_TABLE = "clearway_schema_history";

  private Schema() {}

  /** Applies pending migrations of {@code dialect} to {@code dataSource}. */
  public static void migrate(DataSource dataSource, SqlDialect dialect) {
    configure(dialect).dataSource(dataSource).load().migrate();
  }

  /**
   * Applies pending migrations over a connection of their own (not pooled, without the pool's
   * statement and socket timeouts). {@code user} and {@code password} may be null when the URL
   * carries them.
   */
  public static void migrate(String jdbcUrl, String user, String password, SqlDialect dialect) {
    configure(dialect).dataSource(jdbcUrl, user, password).load().migrate();
  }

  private static FluentConfiguration configure(SqlDialect dialect) {
    return Flyway.configure()
        .locations(dialect.migrationLocation())
        .table(HISTORY_TABLE)
        .baselineOnMigrate(true)
        .baselineVersion("0");
  }
}
