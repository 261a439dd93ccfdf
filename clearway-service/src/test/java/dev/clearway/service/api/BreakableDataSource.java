package dev.clearway.service.api;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The test database's pool, or — once broken — a PostgreSQL URL on a port nobody listens on: every
 * connection then fails for real (connection refused), as when the database is unreachable.
 */
final class BreakableDataSource implements DataSource {
  private final DataSource healthy;
  private final String unreachableUrl;
  private volatile boolean broken;

  BreakableDataSource(DataSource healthy) {
    this.healthy = healthy;
    this.unreachableUrl =
        "jdbc:postgresql://127.0.0.1:" + closedPort() + "/clearway?connectTimeout=2";
  }

  void breakIt() {
    broken = true;
  }

  void heal() {
    broken = false;
  }

  private static int closedPort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public Connection getConnection() throws SQLException {
    return broken
        ? DriverManager.getConnection(unreachableUrl, "clearway", "x")
        : healthy.getConnection();
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    return getConnection();
  }

  @Override
  public PrintWriter getLogWriter() throws SQLException {
    return healthy.getLogWriter();
  }

  @Override
  public void setLogWriter(PrintWriter out) throws SQLException {
    healthy.setLogWriter(out);
  }

  @Override
  public void setLoginTimeout(int seconds) throws SQLException {
    healthy.setLoginTimeout(seconds);
  }

  @Override
  public int getLoginTimeout() throws SQLException {
    return healthy.getLoginTimeout();
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    return healthy.getParentLogger();
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    return healthy.unwrap(iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    return healthy.isWrapperFor(iface);
  }
}
