package dev.clearway.store.latecharge;

import dev.clearway.core.latecharge.domain.LateChargeCheck;
import dev.clearway.core.latecharge.domain.LateChargeStatus;
import dev.clearway.core.latecharge.domain.SuspicionSource;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;

/** Maps a late_charge_check row selected with {@link #COLUMNS}. */
public final class LateChargeRows {
  public static final String COLUMNS =
      "id, flow_id, trade_order_no, source, status, version, next_check_time, retry_count,"
          + " last_result, last_error_code, refund_id, lease_owner, created_at, updated_at";

  private LateChargeRows() {}

  static LateChargeCheck map(ResultSet rs) throws SQLException {
    long refundId = rs.getLong("refund_id");
    Long refund = rs.wasNull() ? null : refundId;
    return new LateChargeCheck(
        rs.getLong("id"),
        rs.getLong("flow_id"),
        rs.getString("trade_order_no"),
        SuspicionSource.valueOf(rs.getString("source")),
        LateChargeStatus.valueOf(rs.getString("status")),
        rs.getLong("version"),
        instant(rs, "next_check_time"),
        rs.getInt("retry_count"),
        rs.getString("last_result"),
        rs.getString("last_error_code"),
        refund,
        rs.getString("lease_owner"),
        instant(rs, "created_at"),
        instant(rs, "updated_at"));
  }

  static Instant instant(ResultSet rs, String column) throws SQLException {
    OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }
}
