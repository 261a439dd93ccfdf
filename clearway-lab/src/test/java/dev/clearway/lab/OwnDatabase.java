package dev.clearway.lab;

import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * An empty database for a command that wants one of its own: on the MySQL family (profile {@code
 * mariadb}) a fresh database on the test server, dropped by {@link #close()}; on the default build
 * none, so that the command starts its embedded PostgreSQL as it does without {@code --jdbc-url}.
 */
public final class OwnDatabase implements AutoCloseable {
  private final String name;

  private OwnDatabase(String name) {
    this.name = name;
  }

  /** Creates the database where the tests run on the MySQL family. */
  public static OwnDatabase create(String prefix) throws SQLException {
    if (!TestDatabase.get().isMysqlFamily()) {
      return new OwnDatabase(null);
    }
    String name = prefix + "_" + ProcessHandle.current().pid() + "_" + System.nanoTime();
    admin("CREATE DATABASE " + name);
    return new OwnDatabase(name);
  }

  /** The command's arguments that select this database: none on the embedded PostgreSQL. */
  public List<String> jdbcUrlArgs() {
    return name == null ? List.of() : List.of("--jdbc-url", withDatabase(server(), name));
  }

  @Override
  public void close() throws SQLException {
    if (name != null) {
      admin("DROP DATABASE IF EXISTS " + name);
    }
  }

  private static String server() {
    return System.getProperty("clearway.test.server");
  }

  private static void admin(String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(server());
        Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  /** The server's URL with {@code database} in place of its maintenance database. */
  private static String withDatabase(String url, String database) {
    int query = url.indexOf('?');
    String base = query < 0 ? url : url.substring(0, query);
    return base.substring(0, base.lastIndexOf('/') + 1)
        + database
        + (query < 0 ? "" : url.substring(query));
  }
}
