package dev.clearway.sharding;

import dev.clearway.store.Database;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The shipped layout {@code deploy/sharding/clearway-mariadb.yaml} on the machine's MariaDB, over
 * two fresh databases with random names (dropped at exit), with ShardingSphere's SQL log on:
 * installed by {@link ShardedSchemaInstaller} and opened by {@link Database#connect}, once per test
 * JVM.
 */
final class ShardedTestDatabase {

  /** The tag of the sharding tests (profile {@code mariadb}). */
  static final String SHARDING = "sharding";

  private static final String ADMIN = "jdbc:mariadb://127.0.0.1:3306/mysql?user=root";

  private final Database database;
  private final List<String> physical;

  private ShardedTestDatabase(Database database, List<String> physical) {
    this.database = database;
    this.physical = physical;
  }

  private static final class Holder {
    static final ShardedTestDatabase INSTANCE = start();

    private static ShardedTestDatabase start() {
      String base = "clearway_sh_" + ProcessHandle.current().pid() + "_" + System.nanoTime();
      List<String> names = List.of(base + "_0", base + "_1");
      try {
        Path shipped = Path.of("..", "deploy", "sharding", "clearway-mariadb.yaml");
        String yaml =
            Files.readString(shipped)
                .replace("/clearway_ds_0?", "/" + names.get(0) + "?")
                .replace("/clearway_ds_1?", "/" + names.get(1) + "?")
                .replace("sql-show: false", "sql-show: true");
        Path file = Files.createTempFile("clearway-sharding", ".yaml");
        Files.writeString(file, yaml);
        for (String name : names) {
          admin("CREATE DATABASE " + name);
        }
        Runtime.getRuntime()
            .addShutdownHook(
                new Thread(() -> names.forEach(n -> admin("DROP DATABASE IF EXISTS " + n))));
        String url = "jdbc:shardingsphere:absolutepath:" + file.toAbsolutePath();
        new ShardedSchemaInstaller(ShardingLayout.ofUrl(url)).install();
        Database db = Database.connect(url, 8);
        Runtime.getRuntime().addShutdownHook(new Thread(db::close));
        return new ShardedTestDatabase(db, names);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (SQLException e) {
        throw new IllegalStateException("install the sharded test schema", e);
      }
    }
  }

  static ShardedTestDatabase get() {
    return Holder.INSTANCE;
  }

  Database database() {
    return database;
  }

  /** Runs {@code sql} on physical database {@code index} (0 or 1), bypassing ShardingSphere. */
  void physical(int index, String sql) {
    try (Connection c = DriverManager.getConnection(physicalUrl(index));
        Statement st = c.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(sql, e);
    }
  }

  /** A count read on physical database {@code index}, bypassing ShardingSphere. */
  long physicalCount(int index, String sql) {
    try (Connection c = DriverManager.getConnection(physicalUrl(index));
        Statement st = c.createStatement();
        var rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException e) {
      throw new IllegalStateException(sql, e);
    }
  }

  private String physicalUrl(int index) {
    return "jdbc:mariadb://127.0.0.1:3306/" + physical.get(index) + "?user=root";
  }

  /**
   * Empties {@code tables} on every physical table of both databases (TRUNCATE: the guard triggers
   * refuse deletes) and restarts each AUTO_INCREMENT at its shard's first id.
   */
  void truncate(List<String> tables) {
    for (int db = 0; db < 2; db++) {
      try (Connection c = DriverManager.getConnection(physicalUrl(db));
          Statement st = c.createStatement()) {
        st.execute("SET FOREIGN_KEY_CHECKS = 0");
        for (String table : tables) {
          for (int t = 0; t < 2; t++) {
            st.execute("TRUNCATE TABLE " + table + "_" + t);
            st.execute(
                "ALTER TABLE "
                    + table
                    + "_"
                    + t
                    + " AUTO_INCREMENT = "
                    + ShardKeys.firstId(db * 2 + t));
          }
        }
      } catch (SQLException e) {
        throw new IllegalStateException("truncate " + tables, e);
      }
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
