package dev.clearway.store;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTransientConnectionException;
import java.util.Properties;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The DataSource of a driver that pools its physical connections itself (ShardingSphere-JDBC):
 * every {@link #getConnection()} is a new logical connection of the driver, and closing it hands
 * its physical connections back to the driver's own pools.
 *
 * <p>Such a connection must not sit in a pool of its own. A ShardingSphere connection keeps the
 * physical connection of every database it has used until it is closed, and commits, rolls back and
 * sets autocommit on each of them: pooled, a logical connection that has once reached both
 * databases sends every commit to both ever after, one of them empty. Opened per use, a transaction
 * commits only on the databases its statements reached.
 *
 * <p>At most {@code maxOpen} connections are open at once, as a pool of that size would hand out:
 * the engine's concurrency against the databases stays what its pool size says, and a caller waits
 * up to 30 seconds for a connection to close, as Hikari's default {@code connectionTimeout}.
 */
final class DriverDataSource implements DataSource {
  private static final long WAIT_SECONDS = 30;

  private final String url;
  private final Driver driver;
  private final Semaphore open;
  private volatile PrintWriter logWriter;

  /** The data source of the driver that accepts {@code url}, at most {@code maxOpen} open. */
  DriverDataSource(String url, int maxOpen) {
    this.url = url;
    this.open = new Semaphore(maxOpen);
    try {
      this.driver = DriverManager.getDriver(url);
    } catch (SQLException e) {
      throw new StoreException("no JDBC driver for the configured URL", e);
    }
  }

  @Override
  public Connection getConnection() throws SQLException {
    try {
      if (!open.tryAcquire(WAIT_SECONDS, TimeUnit.SECONDS)) {
        throw new SQLTransientConnectionException(
            "no connection closed within " + WAIT_SECONDS + " s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLTransientConnectionException("interrupted while waiting for a connection", e);
    }
    try {
      Connection c = driver.connect(url, new Properties());
      if (c == null) {
        throw new SQLException("the driver refused its own URL");
      }
      return releasingOnClose(c);
    } catch (SQLException | RuntimeException e) {
      open.release();
      throw e;
    }
  }

  /** {@code real}, whose first {@code close()} gives its place back. */
  private Connection releasingOnClose(Connection real) {
    AtomicBoolean closed = new AtomicBoolean();
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              try {
                return method.invoke(real, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              } finally {
                if (method.getName().equals("close") && closed.compareAndSet(false, true)) {
                  open.release();
                }
              }
            });
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
