package dev.clearway.store.testing;

import dev.clearway.store.Database;
import dev.clearway.store.JdbcFlowStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * One embedded PostgreSQL (zonky, a real server) per test JVM, migrated by Flyway on first use and
 * shared by every test class of every module that depends on the clearway-store test-jar.
 *
 * <p>With the system property {@code clearway.test.server} (a JDBC URL of an existing server's
 * maintenance database, set by the Maven profile {@code local-postgres}) the tests run instead on a
 * fresh database created on that server for this JVM and dropped at exit.
 *
 * <p>Usage: {@code TestDatabase.get().reset()} in {@code @BeforeEach}, then {@code
 * TestDatabase.get().store()} or {@code TestDatabase.get().dataSource()}. Tests that share the
 * singleton must not run in parallel with each other, since {@link #reset()} empties the tables.
 */
public final class TestDatabase {
  private static final int POOL_SIZE = 16;

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
        Database db = Database.embedded(POOL_SIZE);
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
      st.execute(
          "TRUNCATE pay_flow_history, pay_flow_state, pay_flow_fact, pay_flow_history_archive,"
              + " pay_flow_archive,"
              + " outbox_event, late_charge_sweep,"
              + " recon_difference_history, recon_difference, recon_run,"
              + " payment_settlement_history, payment_settlement RESTART IDENTITY CASCADE");
    } catch (SQLException e) {
      throw new IllegalStateException("reset test database", e);
    }
  }
}
