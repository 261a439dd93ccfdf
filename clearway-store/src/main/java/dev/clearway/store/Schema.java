package dev.clearway.store;

import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * Clearway's own migrations, tracked in their own history table so that an application that embeds
 * Clearway can keep its Flyway setup and its schema history untouched.
 */
public final class Schema {
  public static final String HISTORY_TABLE = "clearway_schema_history";

  private Schema() {}

  /** Applies pending migrations of {@code dialect} to {@code dataSource}. */
  public static void migrate(DataSource dataSource, SqlDialect dialect) {
    Flyway.configure()
        .dataSource(dataSource)
        .locations(dialect.migrationLocation())
        .table(HISTORY_TABLE)
        .baselineOnMigrate(true)
        .baselineVersion("0")
        .load()
        .migrate();
  }
}
