package dev.clearway.store;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.store.SqlDialect.ClaimPage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The due-page claim of the MySQL family. Its candidates are read without locks from the table's
 * due index: the ids of open rows due by now above the cursor, in id order. The index holds the due
 * time of open rows only (a generated column, NULL once a row is finished), so the read costs the
 * due rows, not the table. The claim then locks the candidates by primary key with SKIP LOCKED and
 * re-checks every condition: a candidate another claimer took or finished meanwhile is not taken.
 * Locking through the due index itself would lock every due row the range reads before the sort by
 * id, the whole backlog, until the claim commits.
 */
final class MysqlDueClaim {

  /** The leased tables with a due column and its index (the MySQL migration of the due index). */
  private static final Map<String, String> DUE_INDEX =
      Map.of(
          "pay_flow_state", "idx_pay_flow_due",
          "refund_order", "idx_refund_due",
          "late_charge_check", "idx_late_charge_due");

  /** Candidates read per row of the page: room for the rows another claimer holds. */
  private static final int SPARE_FACTOR = 2;

  private MysqlDueClaim() {}

  /** Locks and leases the due page: the due index's candidates when the table has one. */
  static List<Long> claim(
      Connection c, LeasedTable.Shape t, long afterId, int limit, Lease lease, Instant now)
      throws SQLException {
    Optional<List<Long>> candidates = read(c, t, afterId, limit, now);
    if (candidates.isPresent() && candidates.get().isEmpty()) {
      return List.of();
    }
    return MysqlDialect.claimIds(
        c, duePage(t, afterId, limit, lease, now, candidates.orElse(List.of())));
  }

  /**
   * The page of due rows of a leased table above {@code afterId}: the primary key walked from the
   * cursor in order (among the {@code candidates} when given), so the locking read stops at the
   * LIMIT.
   */
  private static ClaimPage duePage(
      LeasedTable.Shape t,
      long afterId,
      int limit,
      Lease lease,
      Instant now,
      List<Long> candidates) {
    String among =
        candidates.isEmpty() ? "" : " AND id IN (" + MysqlDialect.placeholders(candidates) + ")";
    return new ClaimPage(
        t.table(),
        "PRIMARY",
        """
        SELECT id FROM %1$s
         WHERE %3$s
           AND %2$s <= ?
           AND id > ?%4$s
         ORDER BY id
         LIMIT ?
           FOR UPDATE SKIP LOCKED
        """
            .formatted(t.table(), t.dueColumn(), t.open(), among),
        (ps, i) -> {
          ps.setObject(i++, ts(now));
          ps.setLong(i++, afterId);
          for (long id : candidates) {
            ps.setLong(i++, id);
          }
          ps.setInt(i++, limit);
          return i;
        },
        "lease_owner = ?, %s = ?".formatted(t.dueColumn()),
        (ps, i) -> {
          ps.setString(i++, lease.token());
          ps.setObject(i++, ts(lease.until()));
          return i;
        },
        "id");
  }

  /** The candidates, or empty when the table has no due index (the claim walks its key). */
  private static Optional<List<Long>> read(
      Connection c, LeasedTable.Shape t, long afterId, int limit, Instant now) throws SQLException {
    String index = DUE_INDEX.get(t.table());
    if (index == null) {
      return Optional.empty();
    }
    String select =
        """
        SELECT id FROM %s FORCE INDEX (%s)
         WHERE due_at <= ? AND id > ?
         ORDER BY id
         LIMIT ?
        """
            .formatted(t.table(), index);
    List<Long> ids = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(select)) {
      ps.setObject(1, ts(now));
      ps.setLong(2, afterId);
      ps.setInt(3, limit * SPARE_FACTOR);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          ids.add(rs.getLong(1));
        }
      }
    }
    return Optional.of(ids);
  }
}
