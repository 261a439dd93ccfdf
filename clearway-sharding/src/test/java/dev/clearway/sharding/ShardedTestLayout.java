package dev.clearway.sharding;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The shipped layout {@code deploy/sharding/clearway-mariadb.yaml} on the machine's MariaDB, copied
 * to a temporary file whose two physical databases have fresh random names (dropped at exit): the
 * sharding tests of every module open it by its {@link #url()}. The databases are not created here:
 * {@link #createDatabases()} does it, or the code under test.
 */
public final class ShardedTestLayout {

  /** The tag of the sharding tests (profile {@code mariadb}). */
  public static final String SHARDING = "sharding";

  private static final String ADMIN = "jdbc:mariadb://127.0.0.1:3306/mysql?user=root";

  private final String url;
  private final List<String> physical;

  private ShardedTestLayout(String url, List<String> physical) {
    this.url = url;
    this.physical = physical;
  }

  /**
   * A copy of the shipped layout over databases named {@code <prefix>_<pid>_<nanos>_0} and {@code
   * _1}, with ShardingSphere's SQL log on or off; both databases are dropped when the JVM exits.
   *
   * @param shipped the shipped YAML file, relative to the module running the test
   */
  public static ShardedTestLayout fresh(Path shipped, String prefix, boolean sqlShow) {
    String base = prefix + "_" + ProcessHandle.current().pid() + "_" + System.nanoTime();
    List<String> names = List.of(base + "_0", base + "_1");
    try {
      String yaml =
          Files.readString(shipped)
              .replace("/clearway_ds_0?", "/" + names.get(0) + "?")
              .replace("/clearway_ds_1?", "/" + names.get(1) + "?")
              .replace("sql-show: false", "sql-show: " + sqlShow);
      Path file = Files.createTempFile("clearway-sharding", ".yaml");
      Files.writeString(file, yaml);
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(() -> names.forEach(n -> admin("DROP DATABASE IF EXISTS " + n))));
      return new ShardedTestLayout(
          "jdbc:shardingsphere:absolutepath:" + file.toAbsolutePath(), names);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The {@code jdbc:shardingsphere:absolutepath:} URL of the copy. */
  public String url() {
    return url;
  }

  /** The physical databases, in the layout's order. */
  public List<String> physical() {
    return physical;
  }

  /** Creates both physical databases. */
  public void createDatabases() {
    physical.forEach(n -> admin("CREATE DATABASE " + n));
  }

  /** A plain JDBC URL of physical database {@code index}, bypassing ShardingSphere. */
  public String physicalUrl(int index) {
    return "jdbc:mariadb://127.0.0.1:3306/" + physical.get(index) + "?user=root";
  }

  /** A count read on physical database {@code index}, bypassing ShardingSphere. */
  public long physicalCount(int index, String sql) {
    try (Connection c = DriverManager.getConnection(physicalUrl(index));
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException e) {
      throw new IllegalStateException(sql, e);
    }
  }

  private static void admin(String sql) {
    try (Connection c = DriverManager.getConnection(ADMIN);
        Statement st = c.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(sql, e);
    }
  }
}
