package dev.clearway.store.refundbatch;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.refundbatch.domain.RefundBatch;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/**
 * The batch runner's statements on the MySQL family, which has neither {@code UPDATE ... FROM} nor
 * {@code RETURNING}: the claim is a locking read, an update by id and a read of the row in one
 * transaction; the item writes that read refund orders are multi-table UPDATEs. {@code ||} is OR
 * there: texts are joined with CONCAT.
 */
final class MysqlBatchRunStatements {

  /** The fence of {@link JdbcBatchRunStore} for a write to an item row {@code i}. */
  private final String itemHeld;

  MysqlBatchRunStatements(String itemHeld) {
    this.itemHeld = itemHeld;
  }

  /** Claims the batch due first; the caller holds the transaction. */
  Optional<RefundBatch> claimDue(Connection c, Lease lease, Instant now) throws SQLException {
    long id;
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            SELECT id FROM refund_batch
             WHERE state IN ('APPROVED', 'RUNNING') AND due_at <= ?
             ORDER BY due_at, id LIMIT 1
               FOR UPDATE SKIP LOCKED
            """)) {
      ps.setObject(1, ts(now));
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        id = rs.getLong(1);
      }
    }
    // MySQL assigns left to right with the new values: the version reads the old state first.
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            UPDATE refund_batch
               SET version = CASE WHEN state = 'APPROVED' THEN version + 1 ELSE version END,
                   state = 'RUNNING', lease_owner = ?, due_at = ?, updated_at = ?
             WHERE id = ?
            """)) {
      ps.setString(1, lease.token());
      ps.setObject(2, ts(lease.until()));
      ps.setObject(3, ts(now));
      ps.setLong(4, id);
      if (ps.executeUpdate() != 1) {
        throw new SQLException("refund batch " + id + " not claimed under its row lock");
      }
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT * FROM refund_batch WHERE id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return Optional.of(BatchRows.batch(rs));
      }
    }
  }

  /** Parameters: updated_at, batch_id, holder. */
  String markPriorBatchRefunds() {
    return """
        UPDATE refund_batch_item i
          JOIN refund_batch_item p ON p.flow_id = i.flow_id AND p.batch_id <> i.batch_id
          JOIN refund_order r ON r.id = p.refund_id
           SET i.outcome = CASE WHEN r.status IN ('FAIL', 'CLOSED') THEN 'NEEDS_PERSON'
                                ELSE 'ALREADY_REFUNDED' END,
               i.refund_id = r.id,
               i.detail = CASE WHEN r.status IN ('FAIL', 'CLOSED')
                               THEN CONCAT('an earlier batch''s refund order is ', r.status)
                               ELSE 'refund order of an earlier batch' END,
               i.updated_at = ?
         WHERE i.batch_id = ? AND i.outcome = 'PENDING'
        """
        + itemHeld;
  }

  /** Parameters: updated_at, batch_id, holder. */
  String settle() {
    return """
        UPDATE refund_batch_item i
          JOIN refund_order r ON r.id = i.refund_id
           SET i.outcome = CASE r.status WHEN 'SUCCESS' THEN 'REFUNDED'
                                         WHEN 'ABNORMAL' THEN 'NEEDS_PERSON' ELSE 'FAILED' END,
               i.detail = CASE r.status WHEN 'SUCCESS' THEN NULL
                                        ELSE CONCAT('refund order ', r.status) END,
               i.updated_at = ?
         WHERE i.batch_id = ? AND i.outcome = 'ORDERED'
           AND r.status IN ('SUCCESS', 'FAIL', 'CLOSED', 'ABNORMAL')
        """
        + itemHeld;
  }
}
