package dev.clearway.store;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.review.OpsCommandKind;
import dev.clearway.core.review.TargetKind;
import dev.clearway.store.review.OpsCommand;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/**
 * The rows of a manual command on a target other than a flow: the command ({@code manual_command})
 * and its audit trail ({@code manual_audit}), single tables on the first database of a sharded
 * layout.
 */
final class OpsCommandRows {

  private OpsCommandRows() {}

  static OpsCommand insert(
      Connection c,
      JdbcOpsCommandStore.Proposal p,
      String operator,
      OpsTargets.Locked target,
      Instant now)
      throws SQLException {
    return RowWrites.insert(
        c,
        """
            INSERT INTO manual_command (target_kind, target_id, kind, expected_status,
                   expected_version, operator_id, ticket, reason, evidence, amount, state,
                   created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'PROPOSED', ?)
        """,
        ps -> {
          ps.setString(1, p.kind().target().name());
          ps.setLong(2, p.targetId());
          ps.setString(3, p.kind().name());
          ps.setString(4, target.facts().status());
          ps.setLong(5, target.version());
          ps.setString(6, operator);
          ps.setString(7, p.ticket());
          ps.setString(8, p.reason());
          ps.setString(9, p.evidence());
          ps.setObject(10, p.amount(), java.sql.Types.BIGINT);
          ps.setObject(11, ts(now));
        },
        "manual_command",
        OpsCommandRows::command);
  }

  static OpsCommand decide(
      Connection c, OpsCommand cmd, String state, String approver, String result, Instant now)
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
              ps.setLong(5, cmd.id());
            },
            "manual_command",
            cmd.id(),
            OpsCommandRows::command)
        .orElseThrow(
            () -> new SQLException("command " + cmd.id() + " left PROPOSED under its lock"));
  }

  static void audit(
      Connection c,
      OpsCommand cmd,
      String actor,
      String role,
      String action,
      String detail,
      Instant now)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            INSERT INTO manual_audit (command_id, target_kind, target_id, actor_id, role, action,
                   detail, at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)) {
      ps.setLong(1, cmd.id());
      ps.setString(2, cmd.targetKind().name());
      ps.setLong(3, cmd.targetId());
      ps.setString(4, actor);
      ps.setString(5, role);
      ps.setString(6, action);
      ps.setString(7, Sql.truncate(detail, 500));
      ps.setObject(8, ts(now));
      ps.executeUpdate();
    }
  }

  static OpsCommand command(ResultSet rs) throws SQLException {
    return new OpsCommand(
        rs.getLong("id"),
        TargetKind.valueOf(rs.getString("target_kind")),
        rs.getLong("target_id"),
        OpsCommandKind.valueOf(rs.getString("kind")),
        rs.getString("expected_status"),
        rs.getLong("expected_version"),
        rs.getString("operator_id"),
        rs.getString("ticket"),
        rs.getString("reason"),
        rs.getString("evidence"),
        rs.getObject("amount", Long.class),
        rs.getString("state"),
        rs.getString("approver_id"),
        rs.getString("result"),
        FlowRows.instant(rs, "created_at"),
        FlowRows.instant(rs, "decided_at"));
  }
}
