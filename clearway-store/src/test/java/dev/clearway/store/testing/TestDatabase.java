package dev.clearway.store.testing;

import dev.clearway.store.Database;
import dev.clearway.store.JdbcFlowStore;
import dev.clearway.store.MysqlDialect;
import dev.clearway.store.SqlDialect;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;

/**
 * One embedded PostgreSQL (zonky, a real server) per test JVM, migrated by Flyway on first use and
 * shared by every test class of every module that depends on the clearway-store test-jar.
 *
 * <p>With the system property {@code clearway.test.server} (a JDBC URL of an existing server's
 * maintenance database, set by the Maven profiles {@code local-postgres} and {@code mariadb}) the
 * tests run instead on a fresh database created on that server for this JVM, migrated with the
 * migrations of the URL's dialect, and dropped at exit. The profile {@code mariadb} runs only the
 * tests tagged {@link #MYSQL_FAMILY}: those whose stores work on the MySQL family.
 *
 * <p>Usage: {@code TestDatabase.get().reset()} in {@code @BeforeEach}, then {@code
 * TestDatabase.get().store()} or {@code TestDatabase.get().dataSource()}. Tests that share the
 * singleton must not run in parallel with each other, since {@link #reset()} empties the tables.
 */
public final class TestDatabase {
  /** The tag of the tests that run on the MySQL family too (profile {@code mariadb}). */
  public static final String MYSQL_FAMILY = "mysql";

  private static final int POOL_SIZE = 16;

  /** What {@link #reset()} empties; PostgreSQL's CASCADE also empties the tables that refer. */
  private static final String RESET_TABLES =
      "pay_flow_history, pay_flow, pay_flow_history_archive, pay_flow_archive,"
          + " outbox_event, late_charge_sweep,"
          + " recon_difference_history, recon_difference, recon_run,"
          + " payment_settlement_history, payment_settlement, statement_line_agreed";

  /** The tables PostgreSQL's CASCADE empties with {@link #RESET_TABLES} (their foreign keys). */
  private static final String REFERRING_TABLES =
      "refund_order, late_charge_check, refund_batch_item";

  private final Database database;
  private final JdbcFlowStore store;

  private TestDatabase(Database database) {
    this.database = database;
    this.store = database.flowStore();
  }

  /** Lazy, thread-safe start: the holder class is initialised on the first call only. */
  private static final class Holder {
    static final TestDatabase INSTANCE = start();

    private static TestDatabase start() {
      String server = System.getProperty("clearway.test.server", "");
      if (server.isBlank()) {
        // Commits deferred (synchronous_commit=off), unlike serve, demo and the benches: a test
        // database is thrown away with its JVM and never survives a server crash, and waiting for
        // a disk flush on each of the tests' many thousand commits would slow the build for
        // nothing.
        Database db =
            Database.embedded(POOL_SIZE, Database.Timeouts.defaults(), Database.Commits.DEFERRED);
        Runtime.getRuntime()
            .addShutdownHook(new Thread(db::close, "clearway-test-database-shutdown"));
        return new TestDatabase(db);
      }
      String name = "clearway_it_" + ProcessHandle.current().pid() + "_" + System.nanoTime();
      admin(server, "CREATE DATABASE " + name);
      Database db = Database.connect(withDatabase(server, name), POOL_SIZE);
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    db.close();
                    admin(server, "DROP DATABASE IF EXISTS " + name);
                  },
                  "clearway-test-database-shutdown"));
      return new TestDatabase(db);
    }

    private static void admin(String url, String sql) {
      try (Connection c = DriverManager.getConnection(url);
          Statement st = c.createStatement()) {
        st.execute(sql);
      } catch (SQLException e) {
        throw new IllegalStateException("test database on " + url.replaceAll("\\?.*", ""), e);
      }
    }

    /** Replaces the database name in a JDBC URL such as jdbc:postgresql://host:port/db?params. */
    static String withDatabase(String url, String database) {
      int query = url.indexOf('?');
      String base = query < 0 ? url : url.substring(0, query);
      String params = query < 0 ? "" : url.substring(query);
      return base.substring(0, base.lastIndexOf('/') + 1) + database + params;
    }
  }

  /** The channel layer's tables, children before parents. */
  public static final List<String> CHANNEL_TABLES =
      List.of(
          "payment_attempt_history",
          "provider_evidence",
          "recovery_task",
          "attempt_compensation",
          "channel_refund",
          "channel_webhook_inbox",
          "payment_attempt",
          "payment_order",
          "channel_account");

  /** Empties the channel layer's tables ({@link #CHANNEL_TABLES}) and restarts their ids. */
  public void truncateChannelTables() {
    truncate(CHANNEL_TABLES.toArray(String[]::new));
  }

  /**
   * Empties {@code tables} and restarts their ids; on PostgreSQL also the tables that refer to them
   * (CASCADE), on the MySQL family only those named.
   */
  public void truncate(String... tables) {
    try (Connection c = dataSource().getConnection();
        Statement st = c.createStatement()) {
      if (!isMysqlFamily()) {
        st.execute("TRUNCATE " + String.join(", ", tables) + " RESTART IDENTITY CASCADE");
        return;
      }
      st.execute("SET FOREIGN_KEY_CHECKS = 0");
      try {
        for (String table : tables) {
          if (holdsRows(st, table)) {
            st.execute("TRUNCATE TABLE " + table);
          }
        }
      } finally {
        st.execute("SET FOREIGN_KEY_CHECKS = 1");
      }
    } catch (SQLException e) {
      throw new IllegalStateException("truncate test tables", e);
    }
  }

  private static boolean holdsRows(Statement st, String table) throws SQLException {
    try (java.sql.ResultSet rs = st.executeQuery("SELECT 1 FROM " + table + " LIMIT 1")) {
      return rs.next();
    }
  }

  /** The JVM-wide instance; starts and migrates the server on the first call. */
  public static TestDatabase get() {
    return Holder.INSTANCE;
  }

  public Database database() {
    return database;
  }

  public DataSource dataSource() {
    return database.dataSource();
  }

  /** The dialect of the database under test. */
  public SqlDialect dialect() {
    return database.dialect();
  }

  /** Whether the tests run on MariaDB or MySQL (profile {@code mariadb}). */
  public boolean isMysqlFamily() {
    return database.dialect() instanceof MysqlDialect;
  }

  /** The store under test, over the shared pool. Stateless, so one instance serves all tests. */
  public JdbcFlowStore store() {
    return store;
  }

  /**
   * Empties the flow tables (and what refers to them), the outbox, the late-charge sweep's cursors
   * and the reconciliation runs, differences and settlement status, and restarts their id
   * sequences.
   */
  public void reset() {
    try (Connection c = dataSource().getConnection();
        Statement st = c.createStatement()) {
      if (!isMysqlFamily()) {
        st.execute(
            "TRUNCATE "
                + RESET_TABLES.replace("pay_flow,", "pay_flow_state, pay_flow_fact,")
                + " RESTART IDENTITY CASCADE");
        return;
      }
      // A flow lives in two tables (its facts and its state) behind the pay_flow view here too.
      String tables =
          (RESET_TABLES + ", " + REFERRING_TABLES)
              .replace("pay_flow,", "pay_flow_state, pay_flow_fact,");
      // One table per TRUNCATE (it also restarts AUTO_INCREMENT and fires no DELETE trigger),
      // only of tables that hold rows: InnoDB recreates the table, which is slow. The foreign
      // keys are off meanwhile, since MySQL refuses to truncate a referenced table.
      st.execute("SET FOREIGN_KEY_CHECKS = 0");
      try {
        for (String table : tables.split(",")) {
          if (holdsRows(st, table.strip())) {
            st.execute("TRUNCATE TABLE " + table.strip());
          }
        }
      } finally {
        st.execute("SET FOREIGN_KEY_CHECKS = 1");
      }
    } catch (SQLException e) {
      throw new IllegalStateException("reset test database", e);
    }
  }
}
