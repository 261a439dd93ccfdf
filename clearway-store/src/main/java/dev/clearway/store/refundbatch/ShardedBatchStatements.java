package dev.clearway.store.refundbatch;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.refundbatch.domain.BatchScope;
import dev.clearway.core.refundbatch.port.RefundBatchCommands;
import dev.clearway.store.FlowReads;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A refund batch's statements through a sharding driver: the batch and its items are single tables
 * on the first database, the flows, attempts and refund orders sit on their payments' shards, and
 * the driver routes no statement that joins the two. Each such statement becomes a read of the
 * sharded rows (a scan over every shard, or a lookup by a key that names the shard) followed by
 * writes of values to the items, in the caller's transaction: only the single tables are written,
 * so the transaction commits on the first database alone.
 */
final class ShardedBatchStatements {

  /** A paid flow in a batch's scope. */
  record PaidFlow(long id, String tradeOrderNo, long amount) {}

  /** An item and the refund order whose status decides it. */
  private record ItemRefund(long itemId, long refundId) {}

  private ShardedBatchStatements() {}

  /**
   * The scope's paid flows, in id order, at most {@code limit}: one statement over every shard (the
   * binding pair joined by id), the pages merged by the driver on {@code ORDER BY id LIMIT}.
   */
  static List<PaidFlow> paidFlows(Connection c, BatchScope s, int limit) throws SQLException {
    String where = ScopeConditions.where(s, "");
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT id, trade_order_no, amount FROM "
                + FlowReads.SHARDED_ROWS
                + " WHERE merchant_id = ? AND scene = ? AND status = 'BIZ_SUCCESS'"
                + where
                + " ORDER BY id LIMIT ?")) {
      int i = 1;
      ps.setString(i++, s.merchant());
      ps.setString(i++, s.scene());
      i = ScopeConditions.bind(ps, i, s);
      ps.setInt(i, limit);
      List<PaidFlow> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new PaidFlow(rs.getLong(1), rs.getString(2), rs.getLong(3)));
        }
      }
      return out;
    }
  }

  /**
   * One item per paid flow, its budget account the one of its succeeded channel attempt (read by
   * the trade order number, on the payment's shard), or 0 for the plain wallet; the number written.
   */
  static int insertItems(Connection c, long batchId, List<PaidFlow> flows, Instant now)
      throws SQLException {
    if (flows.size() > RefundBatchCommands.MAX_ITEMS) {
      return flows.size();
    }
    int written = 0;
    try (PreparedStatement account =
            c.prepareStatement(
                "SELECT channel_account_id FROM payment_attempt"
                    + " WHERE trade_order_no = ? AND status = 'SUCCEEDED' ORDER BY seq LIMIT 1");
        PreparedStatement insert =
            c.prepareStatement(
                """
                INSERT INTO refund_batch_item (batch_id, flow_id, account_id, amount, outcome,
                       updated_at)
                VALUES (?, ?, ?, ?, 'PENDING', ?)
                """)) {
      for (PaidFlow f : flows) {
        account.setString(1, f.tradeOrderNo());
        long accountId = 0;
        try (ResultSet rs = account.executeQuery()) {
          if (rs.next()) {
            accountId = rs.getLong(1);
          }
        }
        insert.setLong(1, batchId);
        insert.setLong(2, f.id());
        insert.setLong(3, accountId);
        insert.setLong(4, f.amount());
        insert.setObject(5, ts(now));
        written += insert.executeUpdate();
      }
    }
    return written;
  }

  /**
   * The batch's pending items whose flow an earlier batch ordered a refund for: that refund's
   * status read by its id (on its shard), then the item written from it under the runner's fence.
   */
  static int markPriorBatchRefunds(
      Connection c, long batchId, String holder, String itemHeld, Instant now) throws SQLException {
    List<ItemRefund> prior =
        itemRefunds(
            c,
            """
            SELECT i.id, p.refund_id FROM refund_batch_item i
              JOIN refund_batch_item p ON p.flow_id = i.flow_id AND p.batch_id <> i.batch_id
             WHERE i.batch_id = ? AND i.outcome = 'PENDING' AND p.refund_id IS NOT NULL
             ORDER BY i.id, p.id
            """,
            batchId);
    int marked = 0;
    for (ItemRefund item : prior) {
      Optional<String> status = refundStatus(c, item.refundId());
      if (status.isEmpty()) {
        continue;
      }
      boolean ended = status.get().equals("FAIL") || status.get().equals("CLOSED");
      marked +=
          writeItem(
              c,
              item,
              ended ? "NEEDS_PERSON" : "ALREADY_REFUNDED",
              ended
                  ? "an earlier batch's refund order is " + status.get()
                  : "refund order of an earlier batch",
              "PENDING",
              batchId,
              holder,
              itemHeld,
              now);
    }
    return marked;
  }

  /** The batch's ordered items whose refund order ended or went ABNORMAL, decided from it. */
  static int settle(Connection c, long batchId, String holder, String itemHeld, Instant now)
      throws SQLException {
    List<ItemRefund> ordered =
        itemRefunds(
            c,
            "SELECT id, refund_id FROM refund_batch_item WHERE batch_id = ? AND outcome = 'ORDERED'"
                + " ORDER BY id",
            batchId);
    int settled = 0;
    for (ItemRefund item : ordered) {
      String status = refundStatus(c, item.refundId()).orElse("");
      String outcome =
          switch (status) {
            case "SUCCESS" -> "REFUNDED";
            case "ABNORMAL" -> "NEEDS_PERSON";
            case "FAIL", "CLOSED" -> "FAILED";
            default -> null;
          };
      if (outcome != null) {
        String detail = status.equals("SUCCESS") ? null : "refund order " + status;
        settled += writeItem(c, item, outcome, detail, "ORDERED", batchId, holder, itemHeld, now);
      }
    }
    return settled;
  }

  private static List<ItemRefund> itemRefunds(Connection c, String sql, long batchId)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setLong(1, batchId);
      List<ItemRefund> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new ItemRefund(rs.getLong(1), rs.getLong(2)));
        }
      }
      return out;
    }
  }

  private static Optional<String> refundStatus(Connection c, long refundId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT status FROM refund_order WHERE id = ?")) {
      ps.setLong(1, refundId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
      }
    }
  }

  /** The item's outcome, if it is still {@code from} and the runner holds the batch: 1 or 0. */
  private static int writeItem(
      Connection c,
      ItemRefund item,
      String outcome,
      String detail,
      String from,
      long batchId,
      String holder,
      String itemHeld,
      Instant now)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE refund_batch_item i SET outcome = ?, refund_id = ?, detail = ?, updated_at = ?"
                + " WHERE i.id = ? AND i.batch_id = ? AND i.outcome = ?"
                + itemHeld)) {
      ps.setString(1, outcome);
      ps.setLong(2, item.refundId());
      ps.setString(3, detail);
      ps.setObject(4, ts(now));
      ps.setLong(5, item.itemId());
      ps.setLong(6, batchId);
      ps.setString(7, from);
      ps.setString(8, holder);
      return ps.executeUpdate();
    }
  }
}
