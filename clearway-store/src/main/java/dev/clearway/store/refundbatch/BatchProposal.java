package dev.clearway.store.refundbatch;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.refundbatch.domain.BatchScope;
import dev.clearway.core.refundbatch.port.RefundBatchCommands;
import dev.clearway.core.refundbatch.port.RefundBatchCommands.Proposal;
import dev.clearway.core.refundbatch.port.RefundBatchCommands.Result;
import dev.clearway.store.SqlDialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/**
 * A proposal in one transaction: the batch row, one item per BIZ_SUCCESS payment in scope (the
 * payment's budget account: the account of its succeeded channel attempt, or 0 for the plain
 * wallet), the item count, the audit line. No payment, or more than {@link
 * RefundBatchCommands#MAX_ITEMS}, is a refusal and the transaction rolls back.
 */
final class BatchProposal {
  private BatchProposal() {}

  static Result insert(Connection c, SqlDialect dialect, Proposal p, String proposer, Instant now)
      throws SQLException {
    long batchId = insertBatch(c, dialect, p, proposer, now);
    int items =
        dialect.sharded()
            ? ShardedBatchStatements.insertItems(
                c,
                batchId,
                ShardedBatchStatements.paidFlows(c, p.scope(), RefundBatchCommands.MAX_ITEMS + 1),
                now)
            : insertItems(c, batchId, p.scope(), now);
    if (items == 0) {
      return new Result.Refused("nothing_to_refund", "no paid goal of the scene is in scope");
    }
    if (items > RefundBatchCommands.MAX_ITEMS) {
      return new Result.Refused(
          "batch_too_large",
          "more than " + RefundBatchCommands.MAX_ITEMS + " payments: narrow the window");
    }
    try (PreparedStatement ps =
        c.prepareStatement("UPDATE refund_batch SET total_items = ? WHERE id = ?")) {
      ps.setInt(1, items);
      ps.setLong(2, batchId);
      if (ps.executeUpdate() != 1) {
        throw new SQLException("refund batch " + batchId + " not counted");
      }
    }
    BatchRows.audit(
        c,
        batchId,
        proposer,
        "OPERATOR",
        "PROPOSE",
        items + " payments, ticket " + p.ticket(),
        now);
    try (PreparedStatement ps = c.prepareStatement("SELECT * FROM refund_batch WHERE id = ?")) {
      ps.setLong(1, batchId);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return new Result.Done(BatchRows.batch(rs));
      }
    }
  }

  private static long insertBatch(
      Connection c, SqlDialect dialect, Proposal p, String proposer, Instant now)
      throws SQLException {
    BatchScope s = p.scope();
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            INSERT INTO refund_batch (merchant_id, scene, paid_from, paid_to, biz_keys, state,
                   proposer_id, ticket, reason, due_at, total_items, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, 'PROPOSED', ?, ?, ?, ?, 0, ?, ?)
            """,
            new String[] {"id"})) {
      ps.setString(1, s.merchant());
      ps.setString(2, s.scene());
      ps.setObject(3, ts(s.paidFrom()));
      ps.setObject(4, ts(s.paidTo()));
      dialect.setTextList(c, ps, 5, s.bizKeys());
      ps.setString(6, proposer);
      ps.setString(7, p.ticket());
      ps.setString(8, p.reason());
      ps.setObject(9, ts(now));
      ps.setObject(10, ts(now));
      ps.setObject(11, ts(now));
      ps.executeUpdate();
      try (ResultSet rs = ps.getGeneratedKeys()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  private static int insertItems(Connection c, long batchId, BatchScope s, Instant now)
      throws SQLException {
    String where = ScopeConditions.where(s, "f.");
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            INSERT INTO refund_batch_item (batch_id, flow_id, account_id, amount, outcome,
                   updated_at)
            SELECT ?, f.id,
                   COALESCE((SELECT a.channel_account_id FROM payment_attempt a
                              WHERE a.trade_order_no = f.trade_order_no
                                AND a.status = 'SUCCEEDED'
                              ORDER BY a.seq LIMIT 1), 0),
                   f.amount, 'PENDING', ?
              FROM pay_flow f
             WHERE f.merchant_id = ? AND f.scene = ? AND f.status = 'BIZ_SUCCESS'%s
             ORDER BY f.id
             LIMIT ?
            """
                .formatted(where))) {
      int i = 1;
      ps.setLong(i++, batchId);
      ps.setObject(i++, ts(now));
      ps.setString(i++, s.merchant());
      ps.setString(i++, s.scene());
      i = ScopeConditions.bind(ps, i, s);
      ps.setInt(i, RefundBatchCommands.MAX_ITEMS + 1);
      return ps.executeUpdate();
    }
  }
}
