package dev.clearway.lab.chaos;

import dev.clearway.sharding.ShardedSchemaInstaller;
import dev.clearway.sharding.ShardingLayout;
import dev.clearway.store.Database;
import dev.clearway.store.SqlDialects;
import java.sql.SQLException;

/**
 * The database of a lab command, chosen from its {@code --jdbc-url}: none starts an embedded
 * PostgreSQL; a {@code jdbc:shardingsphere:absolutepath:} URL first creates the layout's physical
 * databases that are missing and installs their schema ({@link ShardedSchemaInstaller}: Flyway
 * cannot migrate through the sharding driver); any other URL is migrated by {@link
 * Database#connect}.
 */
public final class ChaosDatabase {
  private ChaosDatabase() {}

  /** Opens the database of {@code jdbcUrl} (null: embedded) behind a pool of {@code poolSize}. */
  public static Database open(String jdbcUrl, int poolSize) {
    if (jdbcUrl == null) {
      return Database.embedded(poolSize);
    }
    if (SqlDialects.isSharded(jdbcUrl)) {
      installSharded(jdbcUrl);
    }
    return Database.connect(jdbcUrl, poolSize);
  }

  /** Creates the physical databases of a sharded URL's layout and installs their schema. */
  public static void installSharded(String jdbcUrl) {
    ShardedSchemaInstaller installer =
        new ShardedSchemaInstaller(ShardingLayout.ofUrl(jdbcUrl.strip()));
    try {
      installer.createDatabases();
      installer.install();
    } catch (SQLException e) {
      throw new IllegalStateException("install the sharded schema of " + jdbcUrl, e);
    }
  }
}
