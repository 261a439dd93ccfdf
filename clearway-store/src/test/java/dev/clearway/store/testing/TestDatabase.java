package dev.clearway.store.testing;

import dev.clearway.store.Database;
import dev.clearway.store.JdbcFlowStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * One embedded PostgreSQL (zonky, a real server) per test JVM, migrated by Flyway on first use and
 * shared by every test class of every module that depends on the clearway-store test-jar.
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
      Database db = Database.embedded(POOL_SIZE);
      Runtime.getRuntime()
          .addShutdownHook(new Thread(db::close, "clearway-test-database-shutdown"));
      return new TestDatabase(db);
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

  /** Empties both tables and restarts their id sequences. */
  public void reset() {
    try (Connection c = dataSource().getConnection();
        Statement st = c.createStatement()) {
      st.execute("TRUNCATE pay_flow_history, pay_flow RESTART IDENTITY CASCADE");
    } catch (SQLException e) {
      throw new IllegalStateException("reset test database", e);
    }
  }
}
