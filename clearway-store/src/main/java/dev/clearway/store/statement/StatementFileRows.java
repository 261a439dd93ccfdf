package dev.clearway.store.statement;

import dev.clearway.core.statement.StatementFileRecord;
import dev.clearway.core.statement.StatementFormat;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;

/** Maps {@code statement_file} rows. */
final class StatementFileRows {
  static final String COLUMNS =
      "id, account_ref, statement_day, format, sha256, expected_hash, status, superseded_by,"
          + " line_count, refused_reason, refused_line, imported_at";

  private StatementFileRows() {}

  static StatementFileRecord map(ResultSet rs) throws SQLException {
    long supersededBy = rs.getLong("superseded_by");
    Long superseded = rs.wasNull() ? null : supersededBy;
    return new StatementFileRecord(
        rs.getLong("id"),
        rs.getString("account_ref"),
        rs.getObject("statement_day", java.time.LocalDate.class),
        StatementFormat.fromCode(rs.getString("format")),
        rs.getString("sha256"),
        rs.getString("expected_hash"),
        StatementFileRecord.Status.valueOf(rs.getString("status")),
        superseded,
        rs.getLong("line_count"),
        rs.getString("refused_reason"),
        rs.getLong("refused_line"),
        rs.getObject("imported_at", OffsetDateTime.class).toInstant());
  }
}
