package dev.clearway.store;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.flow.port.FlowStore.Lease;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A table whose rows workers hold with a lease ({@code lease_owner} and a due column that is the
 * lease expiry while the row is held), and the one set of lease statements every such table uses:
 * claim one row, claim a page of due rows (through {@link SqlDialect#claimDue}), and reschedule a
 * held row, fenced by the writer's own token.
 */
public final class LeasedTable {

  /**
   * Payment flows, through their narrow mutable state row; a frozen flow is never claimed and takes
   * no worker write.
   */
  public static final Shape PAY_FLOW =
      new Shape(
          "pay_flow_state",
          "next_retry_time",
          "status IN ('WAIT_PAY', 'PAYING', 'PAYED', 'REFUNDING') AND review_state <> 'FROZEN'",
          "review_state <> 'FROZEN'",
          "pay_flow_fact");

  /** After-sales refund orders. */
  public static final Shape REFUND_ORDER =
      new Shape(
          "refund_order",
          "next_retry_time",
          "status IN ('PENDING', 'PROCESSING', 'ABNORMAL')",
          null);

  /** Late-charge checks. */
  public static final Shape LATE_CHARGE_CHECK =
      new Shape(
          "late_charge_check",
          "next_check_time",
          "status IN ('PENDING', 'CHARGE_CONFIRMED', 'MANUAL')",
          null);

  /**
   * What the lease statements need to know of a table.
   *
   * @param table the table
   * @param dueColumn when the row is next due; while it is held, the lease expiry
   * @param open the filter of rows a worker may claim; it matches the predicate of the table's
   *     partial scan index, so a page is read from that index
   * @param heldFilter a further condition every worker write requires (null: none)
   * @param factsTable the table of the row's write-once facts, joined by id when a claim returns
   *     whole rows (null: the table holds the whole row)
   */
  public record Shape(
      String table, String dueColumn, String open, String heldFilter, String factsTable) {
    public Shape(String table, String dueColumn, String open, String heldFilter) {
      this(table, dueColumn, open, heldFilter, null);
    }
  }

  /** Binds the SET parameters of a reschedule; returns the index of the next parameter. */
  @FunctionalInterface
  public interface SetBinder {
    int bind(PreparedStatement ps) throws SQLException;
  }

  private final Shape shape;
  private final Sql sql;
  private final SqlDialect dialect;

  public LeasedTable(Shape shape, Sql sql, SqlDialect dialect) {
    this.shape = shape;
    this.sql = sql;
    this.dialect = dialect;
  }

  /** Takes the lease of one open row whose lease is free or expired at {@code now}. */
  public boolean claim(long id, Lease lease, Instant now) {
    String due = shape.dueColumn();
    String statement =
        "UPDATE %s SET lease_owner = ?, %s = ? WHERE id = ? AND %s AND (lease_owner IS NULL OR %s <= ?)"
            .formatted(shape.table(), due, shape.open(), due);
    return sql.update(
            statement,
            ps -> {
              ps.setString(1, lease.token());
              ps.setObject(2, ts(lease.until()));
              ps.setLong(3, id);
              ps.setObject(4, ts(now));
            })
        == 1;
  }

  /** Claims up to {@code limit} due rows with id above {@code afterId}; their ids ascending. */
  public List<Long> claimDue(long afterId, int limit, Lease lease, Instant now) {
    List<Long> ids = new ArrayList<>(dialect.claimDue(sql, shape, afterId, limit, lease, now));
    Collections.sort(ids);
    return ids;
  }

  /**
   * Claims up to {@code limit} due rows with id above {@code afterId}; returns {@code columns} of
   * each as the claim wrote it, mapped by {@code mapper}, in the order the statement returned them.
   */
  public <T> List<T> claimDueRows(
      long afterId, int limit, Lease lease, Instant now, String columns, Sql.RowMapper<T> mapper) {
    return dialect.claimDueRows(sql, shape, afterId, limit, lease, now, columns, mapper);
  }

  /**
   * Keeps the status, applies {@code sets} (which name the due column among others) and releases
   * the lease; CAS on (id, status, version) and {@code lease_owner = holder}. Race: a worker whose
   * lease expired and was taken over must not release the new holder's lease, so the fence is the
   * writer's own token, never the owner it read the row with. False: nothing was written.
   */
  public boolean reschedule(
      String sets, SetBinder binder, long id, String status, long version, String holder) {
    String statement =
        "UPDATE %s SET %s, lease_owner = NULL WHERE id = ? AND status = ? AND version = ?%s AND lease_owner = ?"
            .formatted(
                shape.table(),
                sets,
                shape.heldFilter() == null ? "" : " AND " + shape.heldFilter());
    return sql.update(
            statement,
            ps -> {
              int i = binder.bind(ps);
              ps.setLong(i++, id);
              ps.setString(i++, status);
              ps.setLong(i++, version);
              ps.setString(i, holder);
            })
        == 1;
  }
}
