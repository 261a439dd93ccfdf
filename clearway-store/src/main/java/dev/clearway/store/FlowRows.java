package dev.clearway.store;

import dev.clearway.core.domain.FlowStatus;
import dev.clearway.core.domain.GoalKey;
import dev.clearway.core.domain.PayFlow;
import dev.clearway.core.domain.ReviewState;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;

/** Maps a pay_flow row selected with {@link PostgresDialect#FLOW_COLUMNS}. */
final class FlowRows {
  private FlowRows() {}

  static PayFlow map(ResultSet rs) throws SQLException {
    return new PayFlow(
        rs.getLong("id"),
        new GoalKey(
            rs.getString("merchant_id"),
            rs.getLong("user_id"),
            rs.getString("scene"),
            rs.getString("biz_key")),
        rs.getInt("attempt_no"),
        rs.getString("trade_order_no"),
        rs.getString("refund_order_no"),
        FlowStatus.valueOf(rs.getString("status")),
        rs.getLong("version"),
        rs.getLong("amount"),
        rs.getString("currency"),
        instant(rs, "biz_deadline_time"),
        instant(rs, "next_retry_time"),
        rs.getInt("retry_count"),
        rs.getString("last_error_code"),
        ReviewState.valueOf(rs.getString("review_state")),
        rs.getString("review_reason"),
        rs.getString("lease_owner"),
        instant(rs, "created_at"),
        instant(rs, "updated_at"),
        instant(rs, "cancel_requested_at"));
  }

  static Instant instant(ResultSet rs, String column) throws SQLException {
    OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }
}
