package dev.clearway.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * A migrated database behind a connection pool: either an embedded PostgreSQL (zonky, a real
 * PostgreSQL server started from the jar) or an existing server given by JDBC URL, PostgreSQL or
 * the MySQL family, its dialect chosen from the URL ({@link SqlDialects#forUrl}).
 *
 * <p>Every pooled connection carries a statement timeout and a socket timeout ({@link Timeouts}),
 * so that a statement stuck on a lock, or a connection whose server or network went silent, fails
 * instead of pinning a worker for ever. Migrations run over their own connection without them: a
 * migration on a large table may legitimately run longer.
 */
public final class Database implements AutoCloseable {

  /**
   * Limits on every pooled connection, far above any legitimate statement of the engine (single-row
   * writes and paged reads take milliseconds): a statement running longer than {@code statement} is
   * cancelled by the server (SQLSTATE 57014), and a read from the server that stays silent longer
   * than {@code socket} fails on the client (a dead server, a dropped network). A value given in
   * the JDBC URL ({@code socketTimeout=}, {@code options=-c statement_timeout=}) takes precedence.
   */
  public record Timeouts(Duration statement, Duration socket) {
    public Timeouts {
      if (statement.isNegative() || statement.isZero() || socket.isNegative() || socket.isZero()) {
        throw new IllegalArgumentException("timeouts must be positive");
      }
    }

    /** The socket timeout in whole seconds, as PgJDBC takes it (at least 1: 0 means none). */
    long socketSeconds() {
      return Math.max(1, (socket.toMillis() + 999) / 1000);
    }

    /** 30 s per statement, 60 s of silence on the socket. */
    public static Timeouts defaults() {
      return new Timeouts(Duration.ofSeconds(30), Duration.ofSeconds(60));
    }
  }

  private final EmbeddedServerStop embedded;
  private final DataSource pool;
  private final String url;
  private final SqlDialect dialect;

  private Database(EmbeddedServerStop embedded, DataSource pool, String url, SqlDialect dialect) {
    this.embedded = embedded;
    this.pool = pool;
    this.url = url;
    this.dialect = dialect;
  }

  /**
   * When PostgreSQL reports a commit: {@link #DURABLE} once its WAL is written ({@code
   * synchronous_commit=on}: a crash of the server loses nothing already answered), {@link
   * #DEFERRED} before ({@code off}: a crash of the server can lose the last commits, already
   * answered to the client; meant for throwaway test databases only). The embedded server runs with
   * {@code fsync=off} (its library starts it with {@code -F}), so the WAL reaches the operating
   * system, not necessarily the disk.
   */
  public enum Commits {
    DURABLE("on"),
    DEFERRED("off");

    private final String synchronousCommit;

    Commits(String synchronousCommit) {
      this.synchronousCommit = synchronousCommit;
    }
  }

  /** Starts an embedded PostgreSQL server with durable commits and migrates it. */
  public static Database embedded(int poolSize) {
    return embedded(poolSize, Timeouts.defaults());
  }

  /**
   * Starts an embedded PostgreSQL server with durable commits and migrates it; the pool uses {@code
   * timeouts}.
   */
  public static Database embedded(int poolSize, Timeouts timeouts) {
    return embedded(poolSize, timeouts, Commits.DURABLE);
  }

  /**
   * Starts an embedded PostgreSQL server and migrates it. A payment engine needs {@link
   * Commits#DURABLE}: with commits deferred, a crash can lose a flow already acted upon, and its id
   * (and so a trade order number already sent to a PSP) could be issued twice. The embedded
   * server's own default is {@code off}, so the setting is always given.
   */
  public static Database embedded(int poolSize, Timeouts timeouts, Commits commits) {
    try {
      EmbeddedPostgres pg =
          EmbeddedPostgres.builder()
              .setServerConfig("max_connections", "200")
              .setServerConfig("shared_buffers", "256MB")
              .setServerConfig("synchronous_commit", commits.synchronousCommit)
              // EmbeddedServerStop stops it on shutdown, after an owner that closes in order.
              .setRegisterShutdownHook(false)
              .start();
      String url = pg.getJdbcUrl("postgres", "postgres");
      return open(EmbeddedServerStop.register(pg), url, "postgres", "", poolSize, timeouts);
    } catch (IOException e) {
      throw new UncheckedIOException("start embedded PostgreSQL", e);
    }
  }

  /**
   * Connects to an existing server and migrates it. User and password may be in the URL. A {@code
   * jdbc:shardingsphere:} URL is not migrated: its physical databases are installed beforehand.
   */
  public static Database connect(String jdbcUrl, int poolSize) {
    return connect(jdbcUrl, poolSize, Timeouts.defaults());
  }

  /** Connects to an existing server and migrates it; the pool uses {@code timeouts}. */
  public static Database connect(String jdbcUrl, int poolSize, Timeouts timeouts) {
    return open(null, jdbcUrl, null, null, poolSize, timeouts);
  }

  private static Database open(
      EmbeddedServerStop pg,
      String url,
      String user,
      String password,
      int poolSize,
      Timeouts timeouts) {
    SqlDialect dialect = SqlDialects.forUrl(url);
    if (SqlDialects.isSharded(url)) {
      // A sharded URL's physical schema is installed apart (ShardedSchemaInstaller): Flyway
      // cannot migrate through the ShardingSphere driver. Its physical pools are the YAML's; its
      // logical connections are pooled here, each keeping its prepared statements
      // (ReusingConnection says why).
      HikariConfig config = new HikariConfig();
      config.setDataSource(new DriverDataSource(url));
      config.setMaximumPoolSize(poolSize);
      config.setMinimumIdle(Math.min(poolSize, 4));
      config.setPoolName("clearway-sharded");
      return new Database(pg, new HikariDataSource(config), url, dialect);
    }
    Schema.migrate(url, user, password, dialect);
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    if (user != null) {
      config.setUsername(user);
      config.setPassword(password);
    }
    config.setMaximumPoolSize(poolSize);
    config.setMinimumIdle(Math.min(poolSize, 4));
    config.setPoolName("clearway");
    // PostgreSQL's default, and what the engine's statements are written for; the MySQL family
    // defaults to REPEATABLE READ, whose gap locks make concurrent claims deadlock.
    config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
    // Driver connection properties; parameters in the URL override them.
    dialect.poolProperties(timeouts).forEach(config::addDataSourceProperty);
    return new Database(pg, new HikariDataSource(config), url, dialect);
  }

  /** The pool's JDBC URL (user and password excluded when they were given apart). */
  public String jdbcUrl() {
    return url;
  }

  /**
   * Closes the pool's idle connections (they are reopened on demand). A PostgreSQL backend may hold
   * its latest statistics until its next statement or its exit; closing it flushes them, so that
   * pg_stat_database reflects every transaction committed so far.
   */
  public void closeIdleConnections() {
    if (pool instanceof HikariDataSource hikari) {
      hikari.getHikariPoolMXBean().softEvictConnections();
    }
  }

  public DataSource dataSource() {
    return pool;
  }

  /** The dialect of this database, chosen from its URL. */
  public SqlDialect dialect() {
    return dialect;
  }

  /** The server's {@code synchronous_commit} as a pooled connection sees it ("on", "off", ...). */
  public String synchronousCommit() {
    try (Connection c = pool.getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SHOW synchronous_commit")) {
      rs.next();
      return rs.getString(1);
    } catch (SQLException e) {
      throw new StoreException("SHOW synchronous_commit", e);
    }
  }

  public JdbcFlowStore flowStore() {
    return new JdbcFlowStore(pool, dialect);
  }

  @Override
  public void close() {
    // A sharded URL's physical pools belong to the ShardingSphere driver, which keeps its data
    // source per URL for the JVM's life.
    if (pool instanceof HikariDataSource hikari) {
      hikari.close();
    }
    if (embedded != null) {
      embedded.stop();
    }
  }

  /**
   * Says that the owner closes this database when the JVM shuts down, after its own orderly stop:
   * an embedded server then stops only once {@link #close} was called, or after {@code grace}.
   * Without it, an embedded server stops as soon as the JVM shuts down. Nothing changes for a
   * database on an existing server.
   */
  public Database closedByOwnerOnShutdown(Duration grace) {
    if (embedded != null) {
      embedded.ownerClosesOnShutdown(grace);
    }
    return this;
  }
}
