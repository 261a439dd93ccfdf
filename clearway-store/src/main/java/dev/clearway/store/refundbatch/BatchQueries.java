package dev.clearway.store.refundbatch;

import dev.clearway.core.refundbatch.domain.BatchProgress;
import dev.clearway.core.refundbatch.domain.BatchState;
import dev.clearway.core.refundbatch.domain.ItemOutcome;
import dev.clearway.core.refundbatch.domain.RefundBatch;
import dev.clearway.core.refundbatch.port.RefundBatchCommands.AuditLine;
import dev.clearway.core.refundbatch.port.RefundBatchCommands.ReportLine;
import dev.clearway.store.Sql;
import dev.clearway.store.StoreException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/** The reads of the batch console: a batch, the list, progress, report lines, audit. */
final class BatchQueries {
  private final DataSource dataSource;
  private final Sql sql;

  BatchQueries(DataSource dataSource) {
    this.dataSource = dataSource;
    this.sql = new Sql(dataSource);
  }

  Optional<RefundBatch> find(long batchId) {
    return sql
        .query(
            "SELECT * FROM refund_batch WHERE id = ?",
            ps -> ps.setLong(1, batchId),
            BatchRows::batch)
        .stream()
        .findFirst();
  }

  List<RefundBatch> list(BatchState state, long beforeId, int limit) {
    if (state == null) {
      return sql.query(
          "SELECT * FROM refund_batch WHERE id < ? ORDER BY id DESC LIMIT ?",
          ps -> {
            ps.setLong(1, beforeId);
            ps.setInt(2, limit);
          },
          BatchRows::batch);
    }
    return sql.query(
        "SELECT * FROM refund_batch WHERE state = ? AND id < ? ORDER BY id DESC LIMIT ?",
        ps -> {
          ps.setString(1, state.name());
          ps.setLong(2, beforeId);
          ps.setInt(3, limit);
        },
        BatchRows::batch);
  }

  BatchProgress progress(long batchId) {
    try (Connection c = dataSource.getConnection()) {
      return BatchRows.progress(c, batchId);
    } catch (SQLException e) {
      throw new StoreException("refund batch progress", e);
    }
  }

  List<ReportLine> items(long batchId, ItemOutcome outcome, long afterId, int limit) {
    return sql.query(
        "SELECT id, flow_id, amount, outcome, refund_id, detail FROM refund_batch_item"
            + " WHERE batch_id = ? AND outcome = ? AND id > ? ORDER BY id LIMIT ?",
        ps -> {
          ps.setLong(1, batchId);
          ps.setString(2, outcome.name());
          ps.setLong(3, afterId);
          ps.setInt(4, limit);
        },
        rs -> {
          long refund = rs.getLong(5);
          Long refundId = rs.wasNull() ? null : refund;
          return new ReportLine(
              rs.getLong(1),
              rs.getLong(2),
              rs.getLong(3),
              ItemOutcome.valueOf(rs.getString(4)),
              refundId,
              rs.getString(6));
        });
  }

  List<AuditLine> audit(long batchId) {
    return sql.query(
        "SELECT actor_id, role, action, detail, at FROM refund_batch_audit WHERE batch_id = ?"
            + " ORDER BY id",
        ps -> ps.setLong(1, batchId),
        rs ->
            new AuditLine(
                rs.getString(1),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                BatchRows.instant(rs, "at")));
  }
}
