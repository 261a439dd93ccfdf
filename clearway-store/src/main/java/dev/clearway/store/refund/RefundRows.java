package dev.clearway.store.refund;

import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;

/** Maps a refund_order row selected with {@link #COLUMNS}; binds instants as TIMESTAMPTZ. */
public final class RefundRows {
  public static final String COLUMNS =
      "id, flow_id, merchant_id, seq, trade_order_no, refund_no, amount, currency, reason, requested_by,"
          + " status, version, next_retry_time, retry_count, last_error_code, lease_owner,"
          + " created_at, updated_at";

  private RefundRows() {}

  static RefundOrder map(ResultSet rs) throws SQLException {
    return new RefundOrder(
        rs.getLong("id"),
        rs.getLong("flow_id"),
        rs.getString("merchant_id"),
        rs.getInt("seq"),
        rs.getString("trade_order_no"),
        rs.getString("refund_no"),
        rs.getLong("amount"),
        rs.getString("currency"),
        rs.getString("reason"),
        rs.getString("requested_by"),
        RefundStatus.valueOf(rs.getString("status")),
        rs.getLong("version"),
        instant(rs, "next_retry_time"),
        rs.getInt("retry_count"),
        rs.getString("last_error_code"),
        rs.getString("lease_owner"),
        instant(rs, "created_at"),
        instant(rs, "updated_at"));
  }

  static Instant instant(ResultSet rs, String column) throws SQLException {
    OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }
}
