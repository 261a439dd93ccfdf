package dev.clearway.lab.channel;

import dev.clearway.store.Sql;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * Whether the chaos run's orders have settled: no attempt left live (CREATED, PENDING, UNKNOWN)
 * except those handed to a person, and no compensation pending.
 */
final class ChaosConvergence {

  private final Sql sql;
  private final String prefix;

  ChaosConvergence(DataSource dataSource, String prefix) {
    this.sql = new Sql(dataSource);
    this.prefix = prefix;
  }

  /** Polls every 100 ms until settled (true) or {@code max} has passed (false). */
  boolean await(Duration max) throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    while (System.nanoTime() < deadline) {
      if (open() == 0) {
        return true;
      }
      Thread.sleep(100);
    }
    return false;
  }

  /** The live attempts not handed to a person plus the pending compensations. */
  private long open() {
    return sql.query(
            """
            SELECT (SELECT count(*) FROM payment_attempt a WHERE trade_order_no LIKE ?
                    AND status IN ('CREATED', 'PENDING', 'UNKNOWN')
                    AND NOT EXISTS (SELECT 1 FROM recovery_task t
                                    WHERE t.attempt_id = a.id AND t.status = 'MANUAL'))
                 + (SELECT count(*) FROM attempt_compensation WHERE trade_order_no LIKE ?
                    AND status = 'PENDING')
            """,
            ps -> {
              ps.setString(1, prefix + "%");
              ps.setString(2, prefix + "%");
            },
            rs -> rs.getLong(1))
        .get(0);
  }
}
