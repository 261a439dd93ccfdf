package dev.clearway.store.refundbatch;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.refundbatch.domain.BatchProgress;
import dev.clearway.core.refundbatch.domain.BatchScope;
import dev.clearway.core.refundbatch.domain.BatchState;
import dev.clearway.core.refundbatch.domain.ItemOutcome;
import dev.clearway.core.refundbatch.domain.RefundBatch;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/** Row mapping, progress counts and audit lines of refund_batch, shared by both batch stores. */
final class BatchRows {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private BatchRows() {}

  static RefundBatch batch(ResultSet rs) throws SQLException {
    List<String> bizKeys = bizKeys(rs.getObject("biz_keys"));
    BatchScope scope =
        new BatchScope(
            rs.getString("merchant_id"),
            rs.getString("scene"),
            instant(rs, "paid_from"),
            instant(rs, "paid_to"),
            bizKeys);
    return new RefundBatch(
        rs.getLong("id"),
        scope,
        BatchState.valueOf(rs.getString("state")),
        rs.getLong("version"),
        rs.getString("proposer_id"),
        rs.getString("approver_id"),
        rs.getString("ticket"),
        rs.getString("reason"),
        rs.getString("decision_note"),
        rs.getString("lease_owner"),
        instant(rs, "due_at"),
        rs.getLong("cursor_item_id"),
        rs.getInt("total_items"),
        instant(rs, "created_at"),
        instant(rs, "decided_at"),
        instant(rs, "finished_at"),
        instant(rs, "updated_at"));
  }

  /** The business keys: a TEXT[] on PostgreSQL, a JSON array (read as text) on the MySQL family. */
  private static List<String> bizKeys(Object keys) throws SQLException {
    if (keys == null) {
      return null;
    }
    if (keys instanceof Array array) {
      return List.of((String[]) array.getArray());
    }
    return List.of(JSON.readValue(keys.toString(), String[].class));
  }

  static Instant instant(ResultSet rs, String column) throws SQLException {
    Timestamp t = rs.getTimestamp(column);
    return t == null ? null : t.toInstant();
  }

  static BatchProgress progress(Connection c, long batchId) throws SQLException {
    Map<ItemOutcome, Integer> counts = new EnumMap<>(ItemOutcome.class);
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT outcome, count(*) FROM refund_batch_item WHERE batch_id = ? GROUP BY outcome")) {
      ps.setLong(1, batchId);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          counts.put(ItemOutcome.valueOf(rs.getString(1)), rs.getInt(2));
        }
      }
    }
    return new BatchProgress(counts);
  }

  static void audit(
      Connection c,
      long batchId,
      String actor,
      String role,
      String action,
      String detail,
      Instant now)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO refund_batch_audit (batch_id, actor_id, role, action, detail, at)"
                + " VALUES (?, ?, ?, ?, ?, ?)")) {
      ps.setLong(1, batchId);
      ps.setString(2, actor);
      ps.setString(3, role);
      ps.setString(4, action);
      ps.setString(5, detail == null ? null : detail.substring(0, Math.min(500, detail.length())));
      ps.setObject(6, ts(now));
      if (ps.executeUpdate() != 1) {
        throw new SQLException("audit line of batch " + batchId + " not written");
      }
    }
  }
}
