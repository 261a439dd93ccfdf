package dev.clearway.store.retention;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.retention.RetentionLease;
import dev.clearway.store.Sql;
import java.time.Instant;
import javax.sql.DataSource;

/**
 * {@link RetentionLease} on the one row of {@code retention_lease}: compare-and-set on the expiry.
 */
public final class JdbcRetentionLease implements RetentionLease {
  private final Sql sql;

  public JdbcRetentionLease(DataSource dataSource) {
    this.sql = new Sql(dataSource);
  }

  @Override
  public boolean acquire(String owner, Instant until, Instant now) {
    return sql.update(
            """
            UPDATE retention_lease SET lease_owner = ?, lease_until = ?
             WHERE name = 'retention' AND (lease_until IS NULL OR lease_until <= ?)
            """,
            ps -> {
              ps.setString(1, owner);
              ps.setObject(2, ts(until));
              ps.setObject(3, ts(now));
            })
        == 1;
  }

  @Override
  public void release(String owner, Instant now) {
    // 0 rows: the lease expired and another node took it; its run goes on, nothing to release.
    sql.update(
        """
        UPDATE retention_lease SET lease_owner = NULL, lease_until = NULL, last_run_at = ?
         WHERE name = 'retention' AND lease_owner = ?
        """,
        ps -> {
          ps.setObject(1, ts(now));
          ps.setString(2, owner);
        });
  }
}
