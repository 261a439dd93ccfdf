package dev.clearway.lab.cluster;

import dev.clearway.store.Database;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The one database every node shares: the given one, else a fresh database on the machine's
 * PostgreSQL (127.0.0.1:5432) when it answers, else an embedded server. Only the machine's server
 * can be restarted from here.
 */
final class ClusterDatabase implements AutoCloseable {
  private final Database database;
  private final String nodeUrl;
  private final boolean machineServer;

  private ClusterDatabase(Database database, String nodeUrl, boolean machineServer) {
    this.database = database;
    this.nodeUrl = nodeUrl;
    this.machineServer = machineServer;
  }

  static ClusterDatabase open(ClusterOptions options) {
    if (options.jdbcUrl() != null) {
      return new ClusterDatabase(
          Database.connect(options.jdbcUrl(), 8),
          options.jdbcUrl(),
          isLocalServer(options.jdbcUrl()));
    }
    if (answers("127.0.0.1", 5432)) {
      String name = "clearway_cluster_" + Long.toUnsignedString(options.seed());
      recreate(name);
      String url = "jdbc:postgresql://127.0.0.1:5432/" + name + "?user=postgres";
      return new ClusterDatabase(Database.connect(url, 8), url, true);
    }
    Database embedded = Database.embedded(8);
    return new ClusterDatabase(embedded, embedded.jdbcUrl(), false);
  }

  Database database() {
    return database;
  }

  /** The URL the nodes connect with. */
  String nodeUrl() {
    return nodeUrl;
  }

  /** Whether this is the machine's own server, which {@link ServerRestarts} can restart. */
  boolean restartable() {
    return machineServer;
  }

  private static boolean isLocalServer(String url) {
    return url.startsWith("jdbc:postgresql://127.0.0.1:5432/")
        || url.startsWith("jdbc:postgresql://localhost:5432/");
  }

  private static void recreate(String name) {
    try (Connection c =
            DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres");
        Statement st = c.createStatement()) {
      st.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
      st.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("create database " + name + " on 127.0.0.1:5432", e);
    }
  }

  static boolean answers(String host, int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public void close() {
    database.close();
  }
}
