package dev.clearway.store;

import static dev.clearway.store.PostgresDialect.FLOW_COLUMNS;
import static dev.clearway.store.Sql.truncate;
import static dev.clearway.store.Sql.ts;

import dev.clearway.core.flow.domain.DomainEvent;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.Transitions;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.KeyClaim;
import dev.clearway.core.flow.port.KeyTakenException;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/** {@link FlowStore} over JDBC. SQL stays next to its parameters; every update count is checked. */
public final class JdbcFlowStore implements FlowStore {
  private static final int CREATE_TRIES = 5;

  private final DataSource dataSource;
  private final SqlDialect dialect;
  private final Sql sql;
  private final LeasedTable leased;
  private final GroupCommit<TransitionWrite, Optional<PayFlow>> grouped;

  /** The dialect's statement of several transitions at once, or null: one at a time. */
  private final TransitionGroup group;

  /** The dialect's own flow writes, or null: the single statements below. */
  private final FlowWrites own;

  /** The dialect's own reads of one payment, or null: the statements below. */
  private final FlowReads reads;

  public JdbcFlowStore(DataSource dataSource, SqlDialect dialect) {
    this.dataSource = dataSource;
    this.dialect = dialect;
    this.sql = new Sql(dataSource);
    this.leased = new LeasedTable(LeasedTable.PAY_FLOW, sql, dialect);
    String groupSql = dialect.transitionGroupSql();
    this.group = groupSql == null ? null : new TransitionGroup(sql, groupSql);
    this.grouped = group == null ? null : group.commit(this::transitionAlone);
    this.own = dialect.flowWrites(dataSource).orElse(null);
    this.reads = dialect.flowReads(dataSource).orElse(null);
  }

  @Override
  public CreateResult createAttempt(NewPayment payment, Lease lease, Instant now) {
    return create(payment, lease, now, false);
  }

  @Override
  public CreateResult createStarted(NewPayment payment, Lease lease, Instant now) {
    return create(payment, lease, now, true);
  }

  private CreateResult create(NewPayment payment, Lease lease, Instant now, boolean started) {
    for (int i = 0; i < CREATE_TRIES; i++) {
      try {
        return own != null
            ? own.create(payment, lease, now, started)
            : FlowCreation.create(dataSource, payment, lease, now, started);
      } catch (SQLException e) {
        // Race: another request created an attempt of this goal between our read and insert.
        // uk_biz_attempt or uk_live_attempt refused ours; read again and return the live one.
        if (!SqlErrors.isUniqueViolation(e)) {
          throw new StoreException("create attempt", e);
        }
      }
    }
    throw new StoreException("create attempt: too many concurrent creations of one goal", null);
  }

  @Override
  public boolean claimsKeysAtCreation() {
    return own == null;
  }

  @Override
  public CreateResult createClaiming(
      NewPayment payment, Lease lease, Instant now, boolean started, KeyClaim key) {
    if (own != null) {
      throw new UnsupportedOperationException("this dialect claims keys apart from creation");
    }
    for (int i = 0; i < CREATE_TRIES; i++) {
      try {
        return FlowCreation.create(dataSource, payment, lease, now, started, key);
      } catch (SQLException e) {
        // Race: another request claimed the key (nothing of ours written: the caller reads that
        // request's record), or created an attempt of this goal between our read and insert.
        if (!SqlErrors.isUniqueViolation(e)) {
          throw new StoreException("create attempt", e);
        }
        if (keyClaimed(key)) {
          throw new KeyTakenException();
        }
      }
    }
    throw new StoreException("create attempt: too many concurrent creations of one goal", null);
  }

  private boolean keyClaimed(KeyClaim key) {
    return !sql.query(
            "SELECT 1 FROM idempotency_key WHERE merchant_id = ? AND idem_key = ?",
            ps -> {
              ps.setString(1, key.merchant());
              ps.setString(2, key.key());
            },
            rs -> 1)
        .isEmpty();
  }

  @Override
  public Optional<PayFlow> find(long flowId) {
    if (reads != null) {
      return reads.find(flowId);
    }
    return hotThenArchive("id = ?", ps -> ps.setLong(1, flowId));
  }

  @Override
  public List<PayFlow> findByGoal(GoalKey goal) {
    if (reads != null) {
      return reads.findByGoal(goal);
    }
    return query(goalInBothTables(" ORDER BY attempt_no"), ps -> bindGoalTwice(ps, goal));
  }

  @Override
  public Optional<PayFlow> findByOrderNo(String orderNo) {
    if (reads != null) {
      return reads.findByOrderNo(orderNo);
    }
    return hotThenArchive("trade_order_no = ?", ps -> ps.setString(1, orderNo));
  }

  /**
   * The row from pay_flow, else from pay_flow_archive: a live or recent flow costs one lookup, an
   * archived one two. A flow archived between the two reads is found by the second.
   */
  private Optional<PayFlow> hotThenArchive(String where, Sql.Binder binder) {
    List<PayFlow> hot = query("SELECT " + FLOW_COLUMNS + " FROM pay_flow WHERE " + where, binder);
    if (!hot.isEmpty()) {
      return Optional.of(hot.get(0));
    }
    return query("SELECT " + FLOW_COLUMNS + " FROM pay_flow_archive WHERE " + where, binder)
        .stream()
        .findFirst();
  }

  static String goalInBothTables(String order) {
    String where = " WHERE merchant_id = ? AND user_id = ? AND scene = ? AND biz_key = ?";
    return "SELECT "
        + FLOW_COLUMNS
        + " FROM pay_flow"
        + where
        + " UNION ALL SELECT "
        + FLOW_COLUMNS
        + " FROM pay_flow_archive"
        + where
        + order;
  }

  static void bindGoalTwice(PreparedStatement ps, GoalKey goal) throws SQLException {
    for (int offset = 0; offset <= 4; offset += 4) {
      ps.setString(offset + 1, goal.merchant());
      ps.setLong(offset + 2, goal.userId());
      ps.setString(offset + 3, goal.scene());
      ps.setString(offset + 4, goal.bizKey());
    }
  }

  @Override
  public List<PayFlow> findByBizKey(BizKeyPage page) {
    // idx_pay_flow_biz_key (merchant_id, biz_key, id) serves the filter and the order; user and
    // scene narrow the page in SQL so that a page is always full when more rows exist.
    // The archive (idx_archive_biz_key) is read the same way and the two pages merged. The
    // optional filters are in the statement only when given: no typed NULL parameter, which each
    // database casts its own way.
    String page1 =
        " WHERE merchant_id = ? AND biz_key = ? AND id < ?"
            + (page.userId() == null ? "" : " AND user_id = ?")
            + (page.scene() == null ? "" : " AND scene = ?")
            + " ORDER BY id DESC LIMIT ?";
    return query(
        "(SELECT "
            + FLOW_COLUMNS
            + " FROM pay_flow"
            + page1
            + ") UNION ALL (SELECT "
            + FLOW_COLUMNS
            + " FROM pay_flow_archive"
            + page1
            + ") ORDER BY id DESC LIMIT ?",
        ps -> {
          int i = 1;
          for (int table = 0; table < 2; table++) {
            ps.setString(i++, page.merchant());
            ps.setString(i++, page.bizKey());
            ps.setLong(i++, page.beforeId());
            if (page.userId() != null) {
              ps.setLong(i++, page.userId());
            }
            if (page.scene() != null) {
              ps.setString(i++, page.scene());
            }
            ps.setInt(i++, page.limit());
          }
          ps.setInt(i, page.limit());
        });
  }

  @Override
  public void assignOrderNumbers(long flowId, OrderNumbers numbers, Instant now) {
    if (own != null) {
      own.assignOrderNumbers(flowId, numbers, now);
      return;
    }
    // 0 rows is fine: the numbers were already there (written by the creator or a peer).
    update(
        """
        WITH numbered AS (
          UPDATE pay_flow_fact SET trade_order_no = ?, refund_order_no = ?
           WHERE id = ? AND trade_order_no IS NULL
          RETURNING id)
        UPDATE pay_flow_state s SET updated_at = ? FROM numbered WHERE s.id = numbered.id
        """,
        ps -> {
          ps.setString(1, numbers.tradeOrderNo());
          ps.setString(2, numbers.refundOrderNo());
          ps.setLong(3, flowId);
          ps.setObject(4, ts(now));
        });
  }

  @Override
  public boolean claim(long flowId, Lease lease, Instant now) {
    return leased.claim(flowId, lease, now);
  }

  @Override
  public List<Long> claimDue(long afterId, int limit, Lease lease, Instant now) {
    return leased.claimDue(afterId, limit, lease, now);
  }

  @Override
  public List<PayFlow> claimDueRows(long afterId, int limit, Lease lease, Instant now) {
    List<PayFlow> rows =
        new java.util.ArrayList<>(
            leased.claimDueRows(afterId, limit, lease, now, FLOW_COLUMNS, FlowRows::map));
    rows.sort(java.util.Comparator.comparingLong(PayFlow::id));
    return rows;
  }

  /**
   * A worker's transition (held under its lease) may be written in one statement and one commit
   * with other workers' transitions of other flows; it returns once that commit is done, with the
   * row it wrote or empty, exactly as when written alone. A command's is always written alone.
   */
  @Override
  public Optional<PayFlow> transition(TransitionWrite w) {
    Transitions.requireLegal(w.from().status(), w.to());
    if (grouped != null && w.holder() != null) {
      return grouped.submit(w);
    }
    return transitionAlone(w);
  }

  /**
   * Transitions of distinct flows by one caller (a worker's page): with the dialect's group
   * statement, in groups of one statement and one commit each ({@link TransitionGroup#writeAll});
   * otherwise one at a time.
   */
  @Override
  public List<Optional<PayFlow>> transitions(List<TransitionWrite> writes) {
    if (group == null || writes.size() < 2 || writes.stream().anyMatch(w -> w.holder() == null)) {
      return FlowStore.super.transitions(writes);
    }
    return group.writeAll(writes, this::transitionAlone);
  }

  private Optional<PayFlow> transitionAlone(TransitionWrite w) {
    PayFlow from = w.from();
    if (own != null) {
      return own.transition(w);
    }
    List<PayFlow> rows =
        query(
            dialect.transitionSql(),
            ps -> {
              int i = 1;
              ps.setString(i++, w.to().name());
              ps.setObject(i++, ts(w.nextRetryTime()));
              ps.setString(i++, w.leaseToken());
              ps.setString(i++, w.errorCode());
              ps.setString(i++, w.note().requestId());
              ps.setObject(i++, ts(w.now()));
              ps.setLong(i++, from.id());
              ps.setString(i++, from.status().name());
              ps.setLong(i++, from.version());
              ps.setString(i++, w.holder());
              ps.setString(i++, w.holder());
              ps.setString(i++, from.status().name());
              ps.setString(i++, w.note().trigger().name());
              ps.setString(i++, w.note().requestId());
              ps.setString(i++, w.note().resultClass());
              ps.setString(i++, w.errorCode());
              ps.setLong(i++, w.note().elapsedMillis());
              ps.setObject(i++, ts(w.now()));
              // The outbox row, in the same statement: a domain event for states that state a fact.
              String event = DomainEvent.onEntering(w.to()).map(Enum::name).orElse(null);
              ps.setString(i++, event);
              ps.setObject(i++, ts(w.now()));
              ps.setString(i, event);
            });
    // 0 rows: someone else moved the row (status or version changed), or the writer no longer
    // holds its lease. Nothing was written; the caller re-reads.
    return rows.stream().findFirst();
  }

  @Override
  public boolean reschedule(RescheduleWrite w) {
    PayFlow from = w.from();
    // updated_at stays: it marks when the flow entered its state (dwell, oldest age).
    return leased.reschedule(
        "retry_count = ?, next_retry_time = ?, last_error_code = ?, review_state = ?,"
            + " review_reason = ?",
        ps -> {
          ps.setInt(1, w.retryCount());
          ps.setObject(2, ts(w.nextRetryTime()));
          ps.setString(3, w.errorCode());
          ps.setString(4, w.reviewState().name());
          ps.setString(5, w.reviewReason());
          return 6;
        },
        from.id(),
        from.status().name(),
        from.version(),
        w.holder());
  }

  @Override
  public boolean requestCancel(long flowId, Instant now) {
    // Race: the advancer may move PAYING -> PAYED at the same moment; the status guard means the
    // cancel is recorded only while the charge is unknown, and a PAYED flow refuses it. A flow
    // held by a worker keeps its lease: that worker sees the cancel in the row its CAS returns.
    return update(
            """
            UPDATE pay_flow_state SET cancel_requested_at = ?, updated_at = ?,
                   next_retry_time = CASE WHEN lease_owner IS NULL
                                          THEN LEAST(next_retry_time, ?)
                                          ELSE next_retry_time END
             WHERE id = ? AND status = 'PAYING' AND cancel_requested_at IS NULL
            """,
            ps -> {
              ps.setObject(1, ts(now));
              ps.setObject(2, ts(now));
              ps.setObject(3, ts(now));
              ps.setLong(4, flowId);
            })
        == 1;
  }

  @Override
  public boolean freeze(long flowId, String holder, String reason, Instant now) {
    // Fenced like every worker write: a worker that lost its lease freezes nothing.
    return update(
            """
            UPDATE pay_flow_state SET review_state = 'FROZEN', review_reason = ?, lease_owner = NULL,
                   updated_at = ?
             WHERE id = ? AND lease_owner = ?
            """,
            ps -> {
              ps.setString(1, truncate(reason, 160));
              ps.setObject(2, ts(now));
              ps.setLong(3, flowId);
              ps.setString(4, holder);
            })
        == 1;
  }

  // ---- plumbing ----------------------------------------------------------------------------

  private List<PayFlow> query(String statement, Sql.Binder binder) {
    return sql.query(statement, binder, FlowRows::map);
  }

  private int update(String statement, Sql.Binder binder) {
    return sql.update(statement, binder);
  }
}
