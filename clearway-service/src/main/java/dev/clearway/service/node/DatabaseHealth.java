package dev.clearway.service.node;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The database as seen by this node: up when a connection answers a validity check within two
 * seconds. Part of the readiness group only: a node that cannot reach the database takes no
 * traffic, but it stays alive (its workers resume when the database is back).
 */
public final class DatabaseHealth implements HealthIndicator {
  private static final int TIMEOUT_SECONDS = 2;

  private final DataSource dataSource;

  public DatabaseHealth(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  @Override
  public Health health() {
    try (Connection c = dataSource.getConnection()) {
      return c.isValid(TIMEOUT_SECONDS)
          ? Health.up().build()
          : Health.down().withDetail("reason", "connection not valid").build();
    } catch (SQLException e) {
      return Health.down().withDetail("reason", "database unreachable").build();
    }
  }
}
