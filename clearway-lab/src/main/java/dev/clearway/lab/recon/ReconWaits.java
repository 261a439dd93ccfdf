package dev.clearway.lab.recon;

import dev.clearway.store.FlowReads;
import dev.clearway.store.Sql;
import dev.clearway.store.SqlDialect;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import javax.sql.DataSource;

/**
 * Waits for the run's rows to settle, read from the database: flows terminal or handed to a person,
 * attempts final or in a manual case, no compensation and no refund order still to be sent.
 */
final class ReconWaits {

  private final Sql sql;
  private final String flowRows;

  ReconWaits(DataSource dataSource, SqlDialect dialect) {
    this.sql = new Sql(dataSource);
    this.flowRows = flowRows(dialect);
  }

  /**
   * The flows' rows: the view {@code pay_flow}, or on a sharded URL (whose driver knows tables, not
   * views) its two binding tables joined by id, which the driver runs once per physical pair.
   */
  static String flowRows(SqlDialect dialect) {
    return dialect.sharded() ? FlowReads.SHARDED_ROWS : "pay_flow";
  }

  /**
   * Flows neither terminal nor in review, plus live attempts not handed to a person. Each read
   * names one table (the flow's two binding tables count as one), so that a sharding driver runs it
   * on every shard and sums or merges the answers; the attempts and their manual tasks are matched
   * here.
   */
  long openPayments() {
    long flows =
        count(
            "SELECT count(*) FROM "
                + flowRows
                + " WHERE status IN ('WAIT_PAY', 'PAYING', 'PAYED', 'REFUNDING')"
                + " AND review_state = 'NONE'");
    List<Long> live =
        sql.query(
            "SELECT id FROM payment_attempt WHERE status IN ('CREATED', 'PENDING', 'UNKNOWN')",
            ps -> {},
            rs -> rs.getLong(1));
    if (live.isEmpty()) {
      return flows;
    }
    Set<Long> manual =
        new HashSet<>(
            sql.query(
                "SELECT attempt_id FROM recovery_task WHERE status = 'MANUAL'",
                ps -> {},
                rs -> rs.getLong(1)));
    return flows + live.stream().filter(id -> !manual.contains(id)).count();
  }

  /**
   * Compensations still pending and refund orders still being sent or queried (PENDING,
   * PROCESSING); a refund handed to manual review (ABNORMAL) waits for a person or the statement.
   * One count per table, added here.
   */
  long openRefunds() {
    return count("SELECT count(*) FROM attempt_compensation WHERE status = 'PENDING'")
        + count("SELECT count(*) FROM refund_order WHERE status IN ('PENDING', 'PROCESSING')");
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
