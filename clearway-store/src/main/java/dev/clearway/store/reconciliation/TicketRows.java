package dev.clearway.store.reconciliation;

import static dev.clearway.store.Sql.truncate;
import static dev.clearway.store.Sql.ts;

import dev.clearway.core.reconciliation.domain.TicketAudit;
import dev.clearway.core.reconciliation.domain.TicketCommand;
import dev.clearway.core.reconciliation.domain.TicketKind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;

/** The rows of recon_command and recon_audit, and the statements that write them. */
final class TicketRows {
  private TicketRows() {}

  static TicketCommand command(ResultSet rs) throws SQLException {
    return new TicketCommand(
        rs.getLong("id"),
        rs.getLong("difference_id"),
        TicketKind.valueOf(rs.getString("kind")),
        rs.getLong("expected_version"),
        rs.getString("operator_id"),
        rs.getString("ticket"),
        rs.getString("reason"),
        rs.getString("evidence"),
        rs.getString("state"),
        rs.getString("approver_id"),
        rs.getString("result"),
        instant(rs, "created_at"),
        instant(rs, "decided_at"));
  }

  static TicketAudit audit(ResultSet rs) throws SQLException {
    return new TicketAudit(
        rs.getLong("id"),
        rs.getLong("command_id"),
        rs.getLong("difference_id"),
        rs.getString("actor_id"),
        rs.getString("role"),
        rs.getString("action"),
        rs.getString("detail"),
        instant(rs, "at"));
  }

  static Instant instant(ResultSet rs, String column) throws SQLException {
    OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }

  /** Appends one audit row; the detail names kinds and tickets, never the evidence. */
  static void appendAudit(
      Connection c,
      TicketCommand cmd,
      String actor,
      String role,
      String action,
      String detail,
      Instant now)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            INSERT INTO recon_audit (command_id, difference_id, actor_id, role, action, detail, at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """)) {
      ps.setLong(1, cmd.id());
      ps.setLong(2, cmd.differenceId());
      ps.setString(3, actor);
      ps.setString(4, role);
      ps.setString(5, action);
      ps.setString(6, truncate(detail, 500));
      ps.setObject(7, ts(now));
      if (ps.executeUpdate() != 1) {
        throw new SQLException("audit row of command " + cmd.id() + " not written");
      }
    }
  }

  /**
   * Moves a PROPOSED command (locked by the caller) to its decided state; the row as written, read
   * back under the caller's lock (portable: the MySQL family has no UPDATE ... RETURNING).
   */
  static TicketCommand decide(
      Connection c, TicketCommand cmd, String state, String approver, String result, Instant now)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            UPDATE recon_command SET state = ?, approver_id = ?, result = ?, decided_at = ?
             WHERE id = ? AND state = 'PROPOSED'
            """)) {
      ps.setString(1, state);
      ps.setString(2, approver);
      ps.setString(3, truncate(result, 200));
      ps.setObject(4, ts(now));
      ps.setLong(5, cmd.id());
      if (ps.executeUpdate() != 1) {
        throw new SQLException("command " + cmd.id() + " left PROPOSED under its lock");
      }
    }
    return byId(c, cmd.id());
  }

  /** The command with id {@code id}, which must exist. */
  static TicketCommand byId(Connection c, long id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT * FROM recon_command WHERE id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new SQLException("command " + id + " not found");
        }
        return command(rs);
      }
    }
  }
}
