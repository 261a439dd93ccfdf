package dev.clearway.lab.recon;

import dev.clearway.store.Sql;
import java.time.Duration;
import java.util.function.LongSupplier;
import javax.sql.DataSource;

/**
 * Waits for the run's rows to settle, read from the database: flows terminal or handed to a person,
 * attempts final or in a manual case, no compensation and no refund order still to be sent.
 */
final class ReconWaits {

  private final Sql sql;

  ReconWaits(DataSource dataSource) {
    this.sql = new Sql(dataSource);
  }

  /** Flows neither terminal nor in review, plus live attempts not handed to a person. */
  long openPayments() {
    return count(
        """
        SELECT (SELECT count(*) FROM pay_flow WHERE status IN
                  ('WAIT_PAY', 'PAYING', 'PAYED', 'REFUNDING') AND review_state = 'NONE')
             + (SELECT count(*) FROM payment_attempt a
                WHERE status IN ('CREATED', 'PENDING', 'UNKNOWN')
                  AND NOT EXISTS (SELECT 1 FROM recovery_task t
                                  WHERE t.attempt_id = a.id AND t.status = 'MANUAL'))
        """);
  }

  /**
   * Compensations still pending and refund orders still being sent or queried (PENDING,
   * PROCESSING); a refund handed to manual review (ABNORMAL) waits for a person or the statement.
   */
  long openRefunds() {
    return count(
        """
        SELECT (SELECT count(*) FROM attempt_compensation WHERE status = 'PENDING')
             + (SELECT count(*) FROM refund_order WHERE status IN ('PENDING', 'PROCESSING'))
        """);
  }

  /** Polls every 100 ms until {@code open} answers 0 (true) or {@code max} passed (false). */
  static boolean await(LongSupplier open, Duration max) throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    while (System.nanoTime() < deadline) {
      if (open.getAsLong() == 0) {
        return true;
      }
      Thread.sleep(100);
    }
    return false;
  }

  private long count(String query) {
    return sql.query(query, ps -> {}, rs -> rs.getLong(1)).get(0);
  }
}
