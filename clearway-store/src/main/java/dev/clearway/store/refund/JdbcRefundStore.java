package dev.clearway.store.refund;

import static dev.clearway.store.Sql.truncate;
import static dev.clearway.store.Sql.ts;
import static dev.clearway.store.refund.RefundRows.COLUMNS;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.refund.domain.NewRefund;
import dev.clearway.core.refund.domain.RefundNumbers;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refund.domain.RefundTransitions;
import dev.clearway.core.refund.port.RefundStore;
import dev.clearway.store.FlowReads;
import dev.clearway.store.LeasedTable;
import dev.clearway.store.PostgresDialect;
import dev.clearway.store.Sql;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.SqlErrors;
import dev.clearway.store.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * {@link RefundStore} over JDBC. The transition and the page claim are the dialect's ({@link
 * SqlDialect}); claims and reschedules are the leased-table statements ({@link LeasedTable}). SQL
 * stays next to its parameters; every update count is checked.
 */
public final class JdbcRefundStore implements RefundStore {
  private static final int CREATE_TRIES = 5;
  private static final int ERROR_CODE_MAX = 64;

  private final DataSource dataSource;
  private final Sql sql;
  private final LeasedTable leased;
  private final RefundWrites writes;

  /** The flow's rows: the view, or its two tables through a sharding driver. */
  private final String flowRows;

  /** A store on PostgreSQL. */
  public JdbcRefundStore(DataSource dataSource) {
    this(dataSource, new PostgresDialect());
  }

  public JdbcRefundStore(DataSource dataSource, SqlDialect dialect) {
    this.dataSource = dataSource;
    this.sql = new Sql(dataSource);
    this.leased = new LeasedTable(LeasedTable.REFUND_ORDER, sql, dialect);
    this.writes = RefundWrites.of(dialect);
    this.flowRows = dialect.sharded() ? FlowReads.SHARDED_ROWS : "pay_flow";
  }

  // ---- creation ----------------------------------------------------------------------------

  @Override
  public CreateOutcome create(NewRefund request, Lease lease, Instant now) {
    String hash = request.requestHash();
    for (int i = 0; i < CREATE_TRIES; i++) {
      try {
        // A refusal wrote nothing; rolling it back releases the flow's row lock.
        return Sql.inTransaction(
            dataSource,
            c -> createInTransaction(c, request, hash, lease, now),
            outcome -> outcome instanceof CreateOutcome.Created);
      } catch (SQLException e) {
        // Race: a request with the same (merchant, key) inserted between our key lookup and our
        // insert; uk_refund_idem refused ours. Run again: the lookup now finds that refund.
        if (!SqlErrors.isUniqueViolation(e)) {
          throw new StoreException("create refund", e);
        }
      }
    }
    throw new StoreException("create refund: too many concurrent requests with one key", null);
  }

  private CreateOutcome createInTransaction(
      Connection c, NewRefund request, String hash, Lease lease, Instant now) throws SQLException {
    // 1. The key: a replay returns its refund whatever happened to the flow since.
    Optional<CreateOutcome> known = byKey(c, request, hash);
    if (known.isPresent()) {
      return known.get();
    }
    // 2. Lock the flow row: every refund creation of one flow is serialised here, so what is read
    // next (a new snapshot per statement under READ COMMITTED, taken after the lock was granted)
    // includes every refund committed by the previous holder. Two concurrent requests can never
    // both fit into the same remaining amount.
    Optional<LockedFlow> locked = lockFlow(c, flowRows, request.flowId());
    // Another merchant's payment answers exactly as a payment that does not exist.
    if (locked.isEmpty()
        || (request.kind().requestedByOwner()
            && !locked.get().merchant().equals(request.requestedBy()))) {
      return new CreateOutcome.FlowNotFound();
    }
    LockedFlow flow = locked.get();
    // Race: a request with the same key and flow committed while we waited for the lock (we read
    // "no such key" before it committed). Read the key again under the lock, or we would count
    // its amount against our own copy of it and refuse a replay as an over-refund.
    known = byKey(c, request, hash);
    if (known.isPresent()) {
      return known.get();
    }
    // The states a kind accepts are terminal (BIZ_SUCCESS; PAY_FAIL, CLOSED), so they still hold
    // when the refund is sent; none of them had a compensation refund, so what was paid (if
    // anything: the wallet refuses to refund an uncharged trade) is the flow's amount.
    if (!request.kind().allows(flow.status()) || flow.tradeOrderNo() == null) {
      return new CreateOutcome.NotAllowed(flow.status());
    }
    // 3. What the flow's refunds hold: every status but FAIL and CLOSED
    // (RefundStatus.holdsAmount), and the next seq.
    Holdings holdings = holdings(c, request.flowId());
    if (request.amount() > flow.paid() - holdings.held()) {
      return new CreateOutcome.ExceedsPayment(flow.paid(), holdings.held());
    }
    // 4. The refund, PENDING, held by the creator's lease (next_retry_time = lease expiry), so the
    // scanner leaves it to the creating request unless that request dies.
    RefundOrder created = insertPending(c, request, hash, flow, holdings.nextSeq(), lease, now);
    // 5. Its creation history row, in the same transaction.
    appendCreationHistory(c, created, now);
    return new CreateOutcome.Created(created);
  }

  /** The refunded flow as read under its row lock. */
  private record LockedFlow(
      FlowStatus status, long paid, String currency, String tradeOrderNo, String merchant) {}

  /** What a flow's refunds hold, and the seq of the next one. */
  private record Holdings(long held, int nextSeq) {}

  private static Optional<LockedFlow> lockFlow(Connection c, String flowRows, long flowId)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT status, amount, currency, trade_order_no, merchant_id FROM "
                + flowRows
                + " WHERE id = ? FOR UPDATE")) {
      ps.setLong(1, flowId);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        return Optional.of(
            new LockedFlow(
                FlowStatus.valueOf(rs.getString("status")),
                rs.getLong("amount"),
                rs.getString("currency"),
                rs.getString("trade_order_no"),
                rs.getString("merchant_id")));
      }
    }
  }

  private static Holdings holdings(Connection c, long flowId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            SELECT COALESCE(SUM(CASE WHEN status NOT IN ('FAIL', 'CLOSED') THEN amount END), 0),
                   COALESCE(MAX(seq), 0) + 1
              FROM refund_order WHERE flow_id = ?
            """)) {
      ps.setLong(1, flowId);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return new Holdings(rs.getLong(1), rs.getInt(2));
      }
    }
  }

  private RefundOrder insertPending(
      Connection c,
      NewRefund request,
      String hash,
      LockedFlow flow,
      int seq,
      Lease lease,
      Instant now)
      throws SQLException {
    return writes.insert(
        c,
        """
        INSERT INTO refund_order (flow_id, seq, trade_order_no, refund_no, amount, currency,
                                  reason, requested_by, idem_key, request_hash, status,
                                  next_retry_time, lease_owner, created_at, updated_at, kind,
                                  merchant_id)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'PENDING', ?, ?, ?, ?, ?, ?)
        """,
        ps -> {
          ps.setLong(1, request.flowId());
          ps.setInt(2, seq);
          ps.setString(3, flow.tradeOrderNo());
          ps.setString(4, RefundNumbers.of(flow.tradeOrderNo(), seq));
          ps.setLong(5, request.amount());
          ps.setString(6, flow.currency());
          ps.setString(7, request.reason());
          ps.setString(8, request.requestedBy());
          ps.setString(9, request.idempotencyKey());
          ps.setString(10, hash);
          ps.setObject(11, ts(lease.until()));
          ps.setString(12, lease.token());
          ps.setObject(13, ts(now));
          ps.setObject(14, ts(now));
          ps.setString(15, request.kind().name());
          ps.setString(16, flow.merchant());
        });
  }

  private static void appendCreationHistory(Connection c, RefundOrder created, Instant now)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            INSERT INTO refund_order_history (refund_id, flow_id, refund_no, from_status,
                   to_status, version, trigger_source, created_at)
            VALUES (?, ?, ?, NULL, 'PENDING', 0, ?, ?)
            """)) {
      ps.setLong(1, created.id());
      ps.setLong(2, created.flowId());
      ps.setString(3, created.refundNo());
      ps.setString(4, TriggerSource.API.name());
      ps.setObject(5, ts(now));
      ps.executeUpdate();
    }
  }

  /** The refund bound to (requester, key): replayed if the parameters match, else a reuse. */
  private static Optional<CreateOutcome> byKey(Connection c, NewRefund request, String hash)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT "
                + COLUMNS
                + ", request_hash FROM refund_order WHERE requested_by = ? AND idem_key = ?")) {
      ps.setString(1, request.requestedBy());
      ps.setString(2, request.idempotencyKey());
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        return Optional.of(
            hash.equals(rs.getString("request_hash"))
                ? new CreateOutcome.Replayed(RefundRows.map(rs))
                : new CreateOutcome.KeyReused());
      }
    }
  }

  // ---- reads -------------------------------------------------------------------------------

  @Override
  public Optional<RefundOrder> find(long refundId) {
    return query(
            "SELECT " + COLUMNS + " FROM refund_order WHERE id = ?", ps -> ps.setLong(1, refundId))
        .stream()
        .findFirst();
  }

  @Override
  public List<RefundOrder> findByFlow(long flowId, int afterSeq, int limit) {
    // uk_refund_flow_seq (flow_id, seq) serves the range and the order.
    return query(
        "SELECT "
            + COLUMNS
            + " FROM refund_order WHERE flow_id = ? AND seq > ?"
            + " ORDER BY seq LIMIT ?",
        ps -> {
          ps.setLong(1, flowId);
          ps.setInt(2, afterSeq);
          ps.setInt(3, limit);
        });
  }

  // ---- leases ------------------------------------------------------------------------------

  @Override
  public boolean claim(long refundId, Lease lease, Instant now) {
    return leased.claim(refundId, lease, now);
  }

  @Override
  public List<Long> claimDue(long afterId, int limit, Lease lease, Instant now) {
    return leased.claimDue(afterId, limit, lease, now);
  }

  // ---- state writes ------------------------------------------------------------------------

  @Override
  public Optional<RefundOrder> transition(TransitionWrite w) {
    RefundOrder from = w.from();
    RefundTransitions.requireLegal(from.status(), w.to());
    String errorCode = truncate(w.errorCode(), ERROR_CODE_MAX);
    // Its domain event with the transition: money went back, or definitely did not. 0 rows:
    // someone else moved the refund (status or version changed), or the writer no longer holds its
    // lease. Nothing was written; the caller re-reads.
    try {
      return writes.transition(dataSource, w, errorCode, refundEvent(w.to()));
    } catch (SQLException e) {
      throw new StoreException("refund transition", e);
    }
  }

  /** The outbox event of a refund order entering {@code to}, or null. */
  static String refundEvent(RefundStatus to) {
    return switch (to) {
      case SUCCESS -> "OrderRefundSucceeded";
      case FAIL -> "OrderRefundFailed";
      case PENDING, PROCESSING, ABNORMAL, CLOSED -> null;
    };
  }

  @Override
  public boolean reschedule(RescheduleWrite w) {
    RefundOrder from = w.from();
    return leased.reschedule(
        "retry_count = ?, next_retry_time = ?, last_error_code = ?, updated_at = ?",
        ps -> {
          ps.setInt(1, w.retryCount());
          ps.setObject(2, ts(w.nextRetryTime()));
          ps.setString(3, truncate(w.errorCode(), ERROR_CODE_MAX));
          ps.setObject(4, ts(w.now()));
          return 5;
        },
        from.id(),
        from.status().name(),
        from.version(),
        w.holder());
  }

  // ---- plumbing ----------------------------------------------------------------------------

  private List<RefundOrder> query(String statement, Sql.Binder binder) {
    return sql.query(statement, binder, RefundRows::map);
  }

  private int update(String statement, Sql.Binder binder) {
    return sql.update(statement, binder);
  }
}
