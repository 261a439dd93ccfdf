package dev.clearway.lab.bench;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * A Hikari pool whose connections count the statements they run, for {@link StatementRoutes}: the
 * {@code dataSourceClassName} of every physical database in the YAML that {@code bench sharded}
 * generates, so each statement ShardingSphere routes to a physical database passes here.
 * ShardingSphere creates the pools itself from the YAML (public no-argument constructor, Hikari's
 * setters), so they count into the process's {@link StatementRoutes#PROCESS}.
 */
public class RouteCountingDataSource extends HikariDataSource {

  /**
   * Ignores this class's own name: ShardingSphere sets the pool class it was given as a property
   * too, and Hikari reads {@code dataSourceClassName} as the driver's DataSource, which it refuses
   * next to {@code driverClassName}.
   */
  @Override
  public void setDataSourceClassName(String className) {
    if (!getClass().getName().equals(className)) {
      super.setDataSourceClassName(className);
    }
  }

  @Override
  public Connection getConnection() throws SQLException {
    return StatementRoutes.PROCESS.physical(super.getConnection());
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    return StatementRoutes.PROCESS.physical(super.getConnection(username, password));
  }
}
