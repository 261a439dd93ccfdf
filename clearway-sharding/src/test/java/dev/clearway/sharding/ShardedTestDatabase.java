package dev.clearway.sharding;

import dev.clearway.store.Database;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;

/**
 * The shipped layout {@code deploy/sharding/clearway-mariadb.yaml} on the machine's MariaDB, over
 * two fresh databases with random names (dropped at exit), with ShardingSphere's SQL log on:
 * installed by {@link ShardedSchemaInstaller} and opened by {@link Database#connect}, once per test
 * JVM.
 */
final class ShardedTestDatabase {

  /** The tag of the sharding tests (profile {@code mariadb}). */
  static final String SHARDING = ShardedTestLayout.SHARDING;

  private final Database database;
  private final ShardedTestLayout layout;

  private ShardedTestDatabase(Database database, ShardedTestLayout layout) {
    this.database = database;
    this.layout = layout;
  }

  private static final class Holder {
    static final ShardedTestDatabase INSTANCE = start();

    private static ShardedTestDatabase start() {
      ShardedTestLayout layout =
          ShardedTestLayout.fresh(
              Path.of("..", "deploy", "sharding", "clearway-mariadb.yaml"), "clearway_sh", true);
      layout.createDatabases();
      try {
        new ShardedSchemaInstaller(ShardingLayout.ofUrl(layout.url())).install();
      } catch (SQLException e) {
        throw new IllegalStateException("install the sharded test schema", e);
      }
      Database db = Database.connect(layout.url(), 8);
      Runtime.getRuntime().addShutdownHook(new Thread(db::close));
      return new ShardedTestDatabase(db, layout);
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
    return layout.physicalCount(index, sql);
  }

  /** How many events of {@code eventType} about {@code aggregateId} the outbox of shard holds. */
  long eventsOnShard(int shard, long aggregateId, String eventType) {
    return physicalCount(
        shard / 2,
        "SELECT count(*) FROM outbox_event_"
            + shard % 2
            + " WHERE aggregate_id = "
            + aggregateId
            + " AND event_type = '"
            + eventType
            + "'");
  }

  private String physicalUrl(int index) {
    return layout.physicalUrl(index);
  }

  /** A flow's tables, children first: its history (live and archived), its outbox, its rows. */
  static final List<String> FLOW_TABLES =
      List.of(
          "pay_flow_history",
          "pay_flow_history_archive",
          "outbox_event",
          "pay_flow_state",
          "pay_flow_fact");

  /** The refund orders with their history, then {@link #FLOW_TABLES}: children first. */
  static final List<String> REFUND_AND_FLOW_TABLES =
      Stream.concat(Stream.of("refund_order_history", "refund_order"), FLOW_TABLES.stream())
          .toList();

  /** The channel layer's payment tables, children first: attempts with their rows, orders. */
  static final List<String> CHANNEL_TABLES =
      List.of(
          "attempt_compensation",
          "channel_refund",
          "payment_attempt_action",
          "payment_attempt_history",
          "provider_evidence",
          "recovery_task",
          "payment_attempt",
          "payment_order");

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

  /** Empties the tables of every group in turn, as {@link #truncate(List)} does. */
  @SafeVarargs
  final void truncateAll(List<String>... groups) {
    truncate(Stream.of(groups).flatMap(List::stream).toList());
  }

  /** Empties {@code tables}, single tables of the first database (TRUNCATE, children first). */
  void truncateSingle(List<String> tables) {
    try (Connection c = DriverManager.getConnection(physicalUrl(0));
        Statement st = c.createStatement()) {
      st.execute("SET FOREIGN_KEY_CHECKS = 0");
      for (String table : tables) {
        st.execute("TRUNCATE TABLE " + table);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("truncate " + tables, e);
    }
  }
}
