package dev.clearway.store;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.ReviewState;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;

/** Maps a pay_flow row selected with {@link PostgresDialect#FLOW_COLUMNS}. */
final class FlowRows {
  private FlowRows() {}

  static PayFlow map(ResultSet rs) throws SQLException {
    return PayFlow.builder()
        .id(rs.getLong("id"))
        .goal(GoalKeyColumns.read(rs))
        .attemptNo(rs.getInt("attempt_no"))
        .orderNumbers(rs.getString("trade_order_no"), rs.getString("refund_order_no"))
        .status(FlowStatus.valueOf(rs.getString("status")))
        .version(rs.getLong("version"))
        .money(rs.getLong("amount"), rs.getString("currency"))
        .bizDeadline(instant(rs, "biz_deadline_time"))
        .nextRetryTime(instant(rs, "next_retry_time"))
        .retryCount(rs.getInt("retry_count"))
        .lastErrorCode(rs.getString("last_error_code"))
        .review(ReviewState.valueOf(rs.getString("review_state")), rs.getString("review_reason"))
        .leaseOwner(rs.getString("lease_owner"))
        .createdAt(instant(rs, "created_at"))
        .updatedAt(instant(rs, "updated_at"))
        .cancelRequestedAt(instant(rs, "cancel_requested_at"))
        .build();
  }

  static Instant instant(ResultSet rs, String column) throws SQLException {
    OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }
}
