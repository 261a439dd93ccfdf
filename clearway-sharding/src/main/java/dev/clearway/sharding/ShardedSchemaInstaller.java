package dev.clearway.sharding;

import dev.clearway.sharding.ShardingLayout.Node;
import dev.clearway.sharding.ShardingLayout.Physical;
import dev.clearway.store.MysqlDialect;
import dev.clearway.store.Schema;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Installs the physical schema of a sharded layout, since Flyway cannot migrate through the
 * ShardingSphere driver: the MySQL migrations build a template database beside the first physical
 * database; every table of the template is then created from its {@code SHOW CREATE TABLE}, with
 * its triggers, on the physical databases: a sharded table once per physical table of the layout
 * (named with its suffix, its AUTO_INCREMENT starting at its shard's first id), any other table on
 * the first database only. The template is dropped at the end. Tables that exist are left alone,
 * triggers are recreated.
 *
 * <p>Usage: {@code java -cp clearway-sharding.jar:… dev.clearway.sharding.ShardedSchemaInstaller
 * /path/clearway-mariadb.yaml}.
 */
public final class ShardedSchemaInstaller {

  private final ShardingLayout layout;

  public ShardedSchemaInstaller(ShardingLayout layout) {
    this.layout = layout;
  }

  /** Installs the layout of the YAML file named by the first argument. */
  public static void main(String[] args) throws SQLException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: ShardedSchemaInstaller <sharding yaml>");
    }
    new ShardedSchemaInstaller(ShardingLayout.read(new java.io.File(args[0]))).install();
  }

  /**
   * Creates every physical database of the layout that is missing ({@code CREATE DATABASE IF NOT
   * EXISTS}, utf8mb4 with the binary collation the schema's tables carry), over a connection to its
   * server without a database.
   */
  public void createDatabases() throws SQLException {
    for (Physical db : layout.databases().values()) {
      String name = databaseName(db.jdbcUrl());
      if (!name.matches("[A-Za-z0-9_]+")) {
        throw new IllegalArgumentException(
            "a physical database name must be [A-Za-z0-9_]: " + name);
      }
      Physical server = new Physical(withDatabase(db.jdbcUrl(), ""), db.user(), db.password());
      admin(
          server,
          "CREATE DATABASE IF NOT EXISTS " + name + " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin");
    }
  }

  /** Creates every physical table and trigger of the layout that is missing. */
  public void install() throws SQLException {
    Physical first = layout.databases().get(layout.singleTablesDatabase());
    String template =
        "clearway_template_" + ProcessHandle.current().pid() + "_" + System.nanoTime();
    admin(first, "CREATE DATABASE " + template);
    try {
      Physical templateDb =
          new Physical(withDatabase(first.jdbcUrl(), template), first.user(), first.password());
      Schema.migrate(templateDb.jdbcUrl(), first.user(), first.password(), new MysqlDialect());
      try (Connection source = connect(templateDb)) {
        SchemaTemplate schema = SchemaTemplate.read(source);
        for (Map.Entry<String, Physical> db : layout.databases().entrySet()) {
          install(db.getKey(), db.getValue(), schema, template);
        }
      }
    } finally {
      admin(first, "DROP DATABASE IF EXISTS " + template);
    }
  }

  private void install(String name, Physical db, SchemaTemplate schema, String template)
      throws SQLException {
    Map<String, String> renames = new LinkedHashMap<>();
    List<String> local = new ArrayList<>();
    List<Node> nodes = new ArrayList<>();
    for (Map.Entry<String, List<Node>> table : layout.shards().entrySet()) {
      for (Node node : table.getValue()) {
        if (node.database().equals(name)) {
          nodes.add(node);
        }
      }
    }
    boolean singles = name.equals(layout.singleTablesDatabase());
    for (String table : schema.tables()) {
      if (!layout.shards().containsKey(table) && singles) {
        local.add(table);
      }
    }
    try (Connection c = connect(db);
        Statement st = c.createStatement()) {
      st.execute("SET FOREIGN_KEY_CHECKS = 0");
      for (String table : local) {
        st.execute(schema.createTable(table, Map.of(), local, -1));
      }
      for (String table : local) {
        seed(st, table, template);
      }
      for (Node node : nodes) {
        renames.clear();
        for (String sharded : layout.shards().keySet()) {
          renames.put(sharded, suffixed(sharded, node));
        }
        List<String> present = new ArrayList<>(local);
        renames.values().forEach(present::add);
        st.execute(schema.createTable(logic(node), renames, present, node.shard()));
        for (String trigger : schema.triggers(logic(node), renames, node.table())) {
          st.execute(trigger);
        }
      }
      for (String table : local) {
        for (String trigger : schema.triggers(table, Map.of(), table)) {
          st.execute(trigger);
        }
      }
      st.execute("SET FOREIGN_KEY_CHECKS = 1");
    }
  }

  /**
   * The rows the migrations wrote into a single table (the retention lease's row, for one), copied
   * from the template beside it when the table is still empty, before its triggers exist.
   */
  private static void seed(Statement st, String table, String template) throws SQLException {
    try (ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table)) {
      rs.next();
      if (rs.getLong(1) > 0) {
        return;
      }
    }
    st.executeUpdate("INSERT INTO " + table + " SELECT * FROM " + template + "." + table);
  }

  /** The logic table of a node. */
  private String logic(Node node) {
    for (Map.Entry<String, List<Node>> table : layout.shards().entrySet()) {
      if (table.getValue().contains(node)) {
        return table.getKey();
      }
    }
    throw new IllegalStateException("no logic table for " + node);
  }

  /** The physical name of {@code table} next to {@code node}: the node's table suffix. */
  private static String suffixed(String table, Node node) {
    return table + node.table().substring(node.table().lastIndexOf('_'));
  }

  private static Connection connect(Physical db) throws SQLException {
    return DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
  }

  private static void admin(Physical db, String sql) throws SQLException {
    try (Connection c = connect(db);
        Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  /** The database name of a JDBC URL such as jdbc:mariadb://host:port/db?params. */
  static String databaseName(String url) {
    int query = url.indexOf('?');
    String base = query < 0 ? url : url.substring(0, query);
    return base.substring(base.lastIndexOf('/') + 1);
  }

  /** Replaces the database name in a JDBC URL such as jdbc:mariadb://host:port/db?params. */
  static String withDatabase(String url, String database) {
    int query = url.indexOf('?');
    String base = query < 0 ? url : url.substring(0, query);
    String params = query < 0 ? "" : url.substring(query);
    return base.substring(0, base.lastIndexOf('/') + 1) + database + params;
  }
}
