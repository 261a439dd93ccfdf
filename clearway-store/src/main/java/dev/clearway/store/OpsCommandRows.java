package dev.clearway.store;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.review.OpsCommandKind;
import dev.clearway.core.review.TargetKind;
import dev.clearway.store.review.OpsCommand;
import java.sql.Connection;
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
    return ManualCommandWrites.decide(
        c, cmd.id(), state, approver, result, now, OpsCommandRows::command);
  }

  /** Where the audit rows of {@code cmd} belong. */
  static ManualCommandWrites.Subject subject(OpsCommand cmd) {
    return new ManualCommandWrites.Subject(cmd.id(), null, cmd.targetKind(), cmd.targetId());
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
