package dev.clearway.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import javax.sql.DataSource;

/**
 * A migrated PostgreSQL database behind a connection pool: either embedded (zonky, a real
 * PostgreSQL server started from the jar) or an existing server given by JDBC URL.
 */
public final class Database implements AutoCloseable {
  private final EmbeddedPostgres embedded;
  private final HikariDataSource pool;
  private final SqlDialect dialect = new PostgresDialect();

  private Database(EmbeddedPostgres embedded, HikariDataSource pool) {
    this.embedded = embedded;
    this.pool = pool;
  }

  /** Starts an embedded PostgreSQL server and migrates it. */
  public static Database embedded(int poolSize) {
    try {
      EmbeddedPostgres pg =
          EmbeddedPostgres.builder()
              .setServerConfig("max_connections", "200")
              .setServerConfig("shared_buffers", "256MB")
              .start();
      String url = pg.getJdbcUrl("postgres", "postgres");
      return open(pg, url, "postgres", "", poolSize);
    } catch (IOException e) {
      throw new UncheckedIOException("start embedded PostgreSQL", e);
    }
  }

  /** Connects to an existing server and migrates it. User and password may be in the URL. */
  public static Database connect(String jdbcUrl, int poolSize) {
    return open(null, jdbcUrl, null, null, poolSize);
  }

  private static Database open(
      EmbeddedPostgres pg, String url, String user, String password, int poolSize) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    if (user != null) {
      config.setUsername(user);
      config.setPassword(password);
    }
    config.setMaximumPoolSize(poolSize);
    config.setMinimumIdle(Math.min(poolSize, 4));
    config.setPoolName("clearway");
    HikariDataSource ds = new HikariDataSource(config);
    Database db = new Database(pg, ds);
    db.migrate();
    return db;
  }

  private void migrate() {
    Schema.migrate(pool, dialect);
  }

  /**
   * Closes the pool's idle connections (they are reopened on demand). A PostgreSQL backend may hold
   * its latest statistics until its next statement or its exit; closing it flushes them, so that
   * pg_stat_database reflects every transaction committed so far.
   */
  public void closeIdleConnections() {
    pool.getHikariPoolMXBean().softEvictConnections();
  }

  public DataSource dataSource() {
    return pool;
  }

  public JdbcFlowStore flowStore() {
    return new JdbcFlowStore(pool, dialect);
  }

  @Override
  public void close() {
    pool.close();
    if (embedded != null) {
      try {
        embedded.close();
      } catch (IOException e) {
        throw new UncheckedIOException("stop embedded PostgreSQL", e);
      }
    }
  }
}
