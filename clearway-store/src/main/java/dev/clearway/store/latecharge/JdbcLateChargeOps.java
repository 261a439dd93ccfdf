package dev.clearway.store.latecharge;

import dev.clearway.store.Sql;
import dev.clearway.store.StatusCounts;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;

/** Read-only queries about late-charge checks and the sweep, for gauges and the ops console. */
public final class JdbcLateChargeOps {
  private final Sql sql;

  public JdbcLateChargeOps(DataSource dataSource) {
    this.sql = new Sql(dataSource);
  }

  /** A check a person must look at (MANUAL): the wallet never gave a definite answer. */
  public record ManualCheck(
      long checkId,
      long flowId,
      String merchantId,
      String tradeOrderNo,
      String source,
      String lastResult,
      String lastErrorCode,
      Instant createdAt,
      Instant updatedAt,
      Instant nextCheckTime) {}

  /** Open checks by status, through the scan index (its size follows the open checks). */
  public Map<String, Long> openByStatus() {
    return StatusCounts.read(
        sql,
        """
        SELECT status, count(*) FROM late_charge_check
         WHERE status IN ('PENDING', 'CHARGE_CONFIRMED', 'MANUAL')
         GROUP BY status
        """);
  }

  /** Every check by status (a full count, for the console's few refreshes a minute). */
  public Map<String, Long> countByStatus() {
    return StatusCounts.read(sql, "SELECT status, count(*) FROM late_charge_check GROUP BY status");
  }

  /**
   * Checks in MANUAL, newest first: at most {@code limit} with an id below {@code beforeId} (the id
   * of the last check of the previous page, or {@link Long#MAX_VALUE} for the first), through
   * {@code idx_late_charge_manual}.
   */
  public List<ManualCheck> manual(long beforeId, int limit) {
    return sql.query(
        """
        SELECT id, flow_id, merchant_id, trade_order_no, source, last_result, last_error_code,
               created_at, updated_at, next_check_time
          FROM late_charge_check
         WHERE status = 'MANUAL' AND id < ?
         ORDER BY id DESC
         LIMIT ?
        """,
        ps -> {
          ps.setLong(1, beforeId);
          ps.setInt(2, limit);
        },
        rs ->
            new ManualCheck(
                rs.getLong("id"),
                rs.getLong("flow_id"),
                rs.getString("merchant_id"),
                rs.getString("trade_order_no"),
                rs.getString("source"),
                rs.getString("last_result"),
                rs.getString("last_error_code"),
                LateChargeRows.instant(rs, "created_at"),
                LateChargeRows.instant(rs, "updated_at"),
                LateChargeRows.instant(rs, "next_check_time")));
  }

  /** Per sweep stage, when the last ended order it queried had ended. */
  public Map<Duration, Instant> sweepCursors() {
    Map<Duration, Instant> cursors = new TreeMap<>();
    sql.query(
        "SELECT stage_age_ms, cursor_ended_at FROM late_charge_sweep",
        ps -> {},
        rs ->
            cursors.put(
                Duration.ofMillis(rs.getLong(1)), LateChargeRows.instant(rs, "cursor_ended_at")));
    return cursors;
  }
}
