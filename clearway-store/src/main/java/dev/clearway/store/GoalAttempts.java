package dev.clearway.store;

import static dev.clearway.store.PostgresDialect.FLOW_COLUMNS;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.PayFlow;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The attempts of a goal that decide its creation, newest first, from {@code pay_flow} and {@code
 * pay_flow_archive} in one statement (one snapshot): an archived attempt still counts for the next
 * attempt_no, and an archived success still answers its goal, so archiving never opens the way to a
 * second charge of a done goal.
 *
 * <p>The archive is read only where it can change the answer. When the hot table holds a live
 * attempt of the goal (a repeated request while a payment is under way), that attempt is the answer
 * and no archived attempt can outrank it (an attempt is only ever created after every earlier one
 * failed, and archived rows are terminal), so the archive branch is cut by a one-time filter: a
 * probe of {@code uk_live_attempt}. Otherwise the archive costs one probe of its goal index, which
 * for a new goal finds no entry and touches no archived row.
 */
final class GoalAttempts {
  private static final String GOAL =
      "merchant_id = ? AND user_id = ? AND scene = ? AND biz_key = ?";

  static final String SQL =
      "SELECT "
          + FLOW_COLUMNS
          + " FROM pay_flow WHERE "
          + GOAL
          + " UNION ALL SELECT "
          + FLOW_COLUMNS
          + " FROM pay_flow_archive WHERE "
          + GOAL
          // The predicate of uk_live_attempt, so that the probe is that index's.
          + " AND NOT EXISTS (SELECT 1 FROM pay_flow WHERE "
          + GOAL
          + " AND status NOT IN ('PAY_FAIL', 'CLOSED'))"
          + " ORDER BY attempt_no DESC";

  private GoalAttempts() {}

  /**
   * The goal's attempts in both tables (the archive's only when no live one is hot), newest first.
   */
  static List<PayFlow> read(Connection c, GoalKey goal) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(SQL)) {
      for (int offset = 0; offset <= 8; offset += 4) {
        ps.setString(offset + 1, goal.merchant());
        ps.setLong(offset + 2, goal.userId());
        ps.setString(offset + 3, goal.scene());
        ps.setString(offset + 4, goal.bizKey());
      }
      List<PayFlow> attempts = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          attempts.add(FlowRows.map(rs));
        }
      }
      return attempts;
    }
  }
}
