package dev.clearway.store;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The unpooled DataSource of a sharding driver (ShardingSphere-JDBC), for a pool to sit on: every
 * {@link #getConnection()} is a new logical connection of the driver, wrapped in a {@link
 * ReusingConnection} that keeps its prepared statements and spares the driver's autocommit round
 * trips. The driver pools its physical connections itself (the YAML's pools); a logical connection
 * holds one physical connection of each database it has used until it is closed.
 */
final class DriverDataSource implements DataSource {

  private final String url;
  private final Driver driver;
  private volatile PrintWriter logWriter;

  /** The data source of the driver that accepts {@code url}. */
  DriverDataSource(String url) {
    this.url = url;
    try {
      this.driver = DriverManager.getDriver(url);
    } catch (SQLException e) {
      throw new StoreException("no JDBC driver for the configured URL", e);
    }
  }

  @Override
  public Connection getConnection() throws SQLException {
    Connection c = driver.connect(url, new Properties());
    if (c == null) {
      throw new SQLException("the driver refused its own URL");
    }
    try {
      return ReusingConnection.over(c);
    } catch (SQLException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    throw new SQLFeatureNotSupportedException("the user is the driver's configuration's");
  }

  @Override
  public PrintWriter getLogWriter() {
    return logWriter;
  }

  @Override
  public void setLogWriter(PrintWriter out) {
    logWriter = out;
  }

  @Override
  public void setLoginTimeout(int seconds) {
    DriverManager.setLoginTimeout(seconds);
  }

  @Override
  public int getLoginTimeout() {
    return DriverManager.getLoginTimeout();
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException("no java.util.logging");
  }

  @Override
  public <T> T unwrap(Class<T> type) throws SQLException {
    if (type.isInstance(this)) {
      return type.cast(this);
    }
    throw new SQLException("not a wrapper of " + type.getName());
  }

  @Override
  public boolean isWrapperFor(Class<?> type) {
    return type.isInstance(this);
  }
}
