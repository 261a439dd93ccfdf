package dev.clearway.store;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.review.TargetKind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;

/**
 * The writes every manual command shares, whatever it acts on (a flow in {@link JdbcReviewStore},
 * another target in {@link OpsCommandRows}): its decision on {@code manual_command} and its audit
 * rows in {@code manual_audit}.
 */
final class ManualCommandWrites {

  /** Where an audit row belongs: the command and its target; a flow id only on a flow's command. */
  record Subject(long commandId, Long flowId, TargetKind targetKind, long targetId) {}

  private ManualCommandWrites() {}

  /**
   * Records the decision of the PROPOSED command {@code commandId} (locked by the caller) and
   * returns it as written; the result is cut to its column's 200 characters.
   */
  static <T> T decide(
      Connection c,
      long commandId,
      String state,
      String approver,
      String result,
      Instant now,
      Sql.RowMapper<T> mapper)
      throws SQLException {
    return RowWrites.update(
            c,
            "UPDATE manual_command SET state = ?, approver_id = ?, result = ?, decided_at = ?"
                + " WHERE id = ? AND state = 'PROPOSED'",
            ps -> {
              ps.setString(1, state);
              ps.setString(2, approver);
              ps.setString(3, Sql.truncate(result, 200));
              ps.setObject(4, ts(now));
              ps.setLong(5, commandId);
            },
            "manual_command",
            commandId,
            mapper)
        .orElseThrow(
            () -> new SQLException("command " + commandId + " left PROPOSED under its lock"));
  }

  /** Appends one audit row; the detail is cut to its column's 500 characters. */
  static void audit(
      Connection c,
      Subject subject,
      String actor,
      String role,
      String action,
      String detail,
      Instant now)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            INSERT INTO manual_audit (command_id, flow_id, target_kind, target_id, actor_id, role,
                   action, detail, at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)) {
      ps.setLong(1, subject.commandId());
      ps.setObject(2, subject.flowId(), Types.BIGINT);
      ps.setString(3, subject.targetKind().name());
      ps.setLong(4, subject.targetId());
      ps.setString(5, actor);
      ps.setString(6, role);
      ps.setString(7, action);
      ps.setString(8, Sql.truncate(detail, 500));
      ps.setObject(9, ts(now));
      if (ps.executeUpdate() != 1) {
        throw new SQLException("audit row of command " + subject.commandId() + " not written");
      }
    }
  }
}
