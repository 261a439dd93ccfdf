package dev.clearway.store.reconciliation;

import dev.clearway.core.reconciliation.domain.DifferenceClass;
import dev.clearway.core.reconciliation.domain.DifferenceState;
import dev.clearway.core.reconciliation.domain.MatchConfidence;
import dev.clearway.core.reconciliation.domain.RecordedDifference;
import dev.clearway.core.reconciliation.domain.RepairKind;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;

/** Maps a {@code recon_difference} row selected with {@link #COLUMNS}. */
final class DifferenceRows {
  static final String COLUMNS =
      "id, account_ref, statement_day, kind, identity, trade_order_no, refund_order_no, flow_id,"
          + " statement_file_id, statement_line_no, statement_amount, local_amount, currency,"
          + " confidence, state, repair_kind, detail, actionable_at, version, created_at,"
          + " updated_at";

  private DifferenceRows() {}

  static RecordedDifference map(ResultSet rs) throws SQLException {
    return new RecordedDifference(
        rs.getLong("id"),
        rs.getString("account_ref"),
        rs.getObject("statement_day", LocalDate.class),
        DifferenceClass.valueOf(rs.getString("kind")),
        rs.getString("identity"),
        rs.getString("trade_order_no"),
        rs.getString("refund_order_no"),
        nullableLong(rs, "flow_id"),
        nullableLong(rs, "statement_file_id"),
        nullableLong(rs, "statement_line_no"),
        nullableLong(rs, "statement_amount"),
        nullableLong(rs, "local_amount"),
        rs.getString("currency"),
        MatchConfidence.valueOf(rs.getString("confidence")),
        DifferenceState.valueOf(rs.getString("state")),
        RepairKind.valueOf(rs.getString("repair_kind")),
        rs.getString("detail"),
        LocalFactRows.instant(rs, "actionable_at"),
        rs.getLong("version"),
        LocalFactRows.instant(rs, "created_at"),
        LocalFactRows.instant(rs, "updated_at"));
  }

  static Long nullableLong(ResultSet rs, String column) throws SQLException {
    long value = rs.getLong(column);
    return rs.wasNull() ? null : value;
  }
}
