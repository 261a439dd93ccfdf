package dev.clearway.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * The one place that picks the dialect: from the scheme of the JDBC URL. {@code jdbc:postgresql:}
 * is PostgreSQL; {@code jdbc:mariadb:} and {@code jdbc:mysql:} are the MySQL family (MariaDB 10.11
 * and MySQL 8). {@code jdbc:shardingsphere:} (ShardingSphere-JDBC over physical MySQL-family
 * databases, the driver on the class path through the module clearway-sharding) is the MySQL family
 * too: the statements pass through ShardingSphere's MySQL parser and reach MySQL-family servers.
 * Any other URL is refused, so that no statement runs on a database nobody tested.
 */
public final class SqlDialects {

  /** The scheme of ShardingSphere-JDBC's URLs. */
  static final String SHARDING_SCHEME = "jdbc:shardingsphere:";

  /** The package of ShardingSphere-JDBC's connection classes. */
  private static final String SHARDING_DRIVER_PACKAGE = "org.apache.shardingsphere.";

  private SqlDialects() {}

  /**
   * Whether {@code jdbcUrl} names a ShardingSphere-JDBC configuration: Flyway cannot migrate
   * through it, its physical schema is installed apart.
   */
  public static boolean isSharded(String jdbcUrl) {
    return jdbcUrl != null && jdbcUrl.strip().toLowerCase(Locale.ROOT).startsWith(SHARDING_SCHEME);
  }

  /** The dialect of {@code jdbcUrl}. */
  public static SqlDialect forUrl(String jdbcUrl) {
    String url = jdbcUrl == null ? "" : jdbcUrl.strip().toLowerCase(Locale.ROOT);
    if (url.startsWith("jdbc:postgresql:")) {
      return new PostgresDialect();
    }
    if (url.startsWith("jdbc:mariadb:") || url.startsWith("jdbc:mysql:")) {
      return new MysqlDialect();
    }
    if (url.startsWith(SHARDING_SCHEME)) {
      return new MysqlDialect(true);
    }
    int colon = url.indexOf(':', "jdbc:".length());
    String scheme = colon < 0 ? "(none)" : url.substring(0, colon);
    throw new IllegalArgumentException(
        "unsupported database "
            + scheme
            + ": use jdbc:postgresql, jdbc:mariadb, jdbc:mysql or jdbc:shardingsphere");
  }

  /**
   * The dialect of the database behind {@code dataSource}, from its connections' URL. A
   * ShardingSphere-JDBC connection (also behind a pool) reports the URL of a physical database, so
   * it is recognised by its class: the sharded dialect, never the plain one of its databases.
   */
  public static SqlDialect forDataSource(DataSource dataSource) {
    try (Connection c = dataSource.getConnection()) {
      if (innermost(c).getClass().getName().startsWith(SHARDING_DRIVER_PACKAGE)) {
        return new MysqlDialect(true);
      }
      return forUrl(c.getMetaData().getURL());
    } catch (SQLException e) {
      throw new StoreException("read the database URL", e);
    }
  }

  /**
   * The connection under every wrapper (a pool's, the sharded URL's {@link ReusingConnection}): a
   * pool unwraps one level, to the connection it was given.
   */
  private static Connection innermost(Connection c) throws SQLException {
    Connection raw = c;
    for (int depth = 0; depth < 4 && raw.isWrapperFor(Connection.class); depth++) {
      Connection next = raw.unwrap(Connection.class);
      if (next == raw) {
        break;
      }
      raw = next;
    }
    return raw;
  }
}
