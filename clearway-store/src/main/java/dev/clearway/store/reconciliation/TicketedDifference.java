package dev.clearway.store.reconciliation;

import static dev.clearway.store.Sql.truncate;
import static dev.clearway.store.Sql.ts;

import dev.clearway.core.reconciliation.domain.DifferenceState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/**
 * The difference a ticket command is about, as a command reads and moves it: its state and version
 * under a row lock, and the one move a command makes (NEEDS_PERSON to RESOLVED) as a
 * compare-and-set with its history row.
 */
final class TicketedDifference {
  private TicketedDifference() {}

  /** A difference's state and version, read under its row lock. */
  record Pinned(long id, DifferenceState state, long version) {}

  static Optional<Pinned> lock(Connection c, long differenceId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT id, state, version FROM recon_difference WHERE id = ? FOR UPDATE")) {
      ps.setLong(1, differenceId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next()
            ? Optional.of(
                new Pinned(
                    rs.getLong("id"),
                    DifferenceState.valueOf(rs.getString("state")),
                    rs.getLong("version")))
            : Optional.empty();
      }
    }
  }

  /**
   * NEEDS_PERSON to RESOLVED from {@code version}, with the history row naming the approver and the
   * command; false when 0 rows moved (the difference is no longer where the command found it).
   */
  static boolean resolve(
      Connection c, long differenceId, long version, String actor, String detail, Instant now)
      throws SQLException {
    int moved;
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            UPDATE recon_difference
               SET state = 'RESOLVED', version = version + 1, updated_at = ?
             WHERE id = ? AND state = 'NEEDS_PERSON' AND version = ?
            """)) {
      ps.setObject(1, ts(now));
      ps.setLong(2, differenceId);
      ps.setLong(3, version);
      moved = ps.executeUpdate();
    }
    if (moved != 1) {
      return false;
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            INSERT INTO recon_difference_history
                   (difference_id, from_state, to_state, version, actor, detail, at)
            VALUES (?, 'NEEDS_PERSON', 'RESOLVED', ?, ?, ?, ?)
            """)) {
      ps.setLong(1, differenceId);
      ps.setLong(2, version + 1);
      ps.setString(3, truncate(actor, 64));
      ps.setString(4, truncate(detail, 500));
      ps.setObject(5, ts(now));
      if (ps.executeUpdate() != 1) {
        throw new SQLException("history of difference " + differenceId + " not written");
      }
    }
    return true;
  }
}
