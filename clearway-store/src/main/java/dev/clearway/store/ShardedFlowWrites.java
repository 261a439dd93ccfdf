package dev.clearway.store;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.flow.domain.DomainEvent;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.port.FlowStore.CreateResult;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.flow.port.FlowStore.TransitionWrite;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The flow's writes through a sharding driver (ShardingSphere-JDBC over MySQL-family databases):
 * the writes of {@link MysqlFlowWrites}, each in one transaction on the payment's shard, with two
 * statements changed because the driver cannot route them. The view {@code pay_flow} is read as the
 * join of its two tables ({@link ShardedFlowReads}); the history and outbox rows are {@code INSERT
 * … VALUES} of the row read back after the CAS, not {@code INSERT … SELECT} from the flow (refused
 * unless the inserted and the selected table are bound), the payload still built by the server's
 * {@code JSON_OBJECT}. The new facts row is routed by its owner and takes its id from that shard's
 * AUTO_INCREMENT, so the id, and the order numbers derived from it, carry the shard.
 */
final class ShardedFlowWrites implements FlowWrites {

  private static final String EVENT_PAYLOAD =
      "JSON_OBJECT('flowId', ?, 'merchantId', ?, 'userId', ?, 'scene', ?, 'bizKey', ?,"
          + " 'attemptNo', ?, 'tradeOrderNo', ?, 'refundOrderNo', ?, 'amount', ?,"
          + " 'currency', ?, 'status', ?, 'version', ?)";

  /**
   * A creation's read of the goal through the flow's two tables joined. The new facts row is routed
   * by its owner and takes its id from that shard's AUTO_INCREMENT, so the id, and the order
   * numbers derived from it, carry the shard.
   */
  private static final MysqlFlowCreation.Reads READS = ShardedFlowReads::goal;

  private final DataSource dataSource;

  ShardedFlowWrites(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  @Override
  public CreateResult create(NewPayment payment, Lease lease, Instant now, boolean started)
      throws SQLException {
    // Race: two creators of one goal both find no open attempt; uk_biz_attempt or uk_live_attempt
    // (on the goal's shard, where both inserts land) refuses the later one and the caller reads
    // again.
    return Sql.inTransaction(
        dataSource, c -> MysqlFlowCreation.create(c, payment, lease, now, started, READS));
  }

  @Override
  public Optional<PayFlow> transition(TransitionWrite w) {
    try {
      return Sql.inTransaction(dataSource, c -> transition(c, w));
    } catch (SQLException e) {
      throw new StoreException("transition flow " + w.from().id(), e);
    }
  }

  private static Optional<PayFlow> transition(Connection c, TransitionWrite w) throws SQLException {
    PayFlow from = w.from();
    PayFlow to;
    if (WrittenFlows.knowable(from) && casState(c, w, true) == 1) {
      // The CAS matched the prior row on every column it keeps: the row written is known.
      to = WrittenFlows.afterTransition(w);
    } else if (casState(c, w, false) == 1) {
      // A column the fenced CAS compares changed under the writer (a cancel request, an
      // escalation) or the prior row was not fully known: the row as written, read back.
      to = ShardedFlowReads.row(c, from.id());
    } else {
      // Someone else moved the row, or the writer no longer holds its lease: nothing written.
      return Optional.empty();
    }
    insertHistory(
        c,
        to,
        from.status().name(),
        w.note().trigger().name(),
        w.note().requestId(),
        w.note().resultClass(),
        w.errorCode(),
        w.note().elapsedMillis(),
        w.now());
    Optional<DomainEvent> event = DomainEvent.onEntering(w.to());
    if (event.isPresent()) {
      requireOne(insertEvent(c, to, event.get(), w.now()), "event of " + from.id());
    }
    return Optional.of(to);
  }

  /**
   * The CAS of the state, with the same fences as {@link MysqlFlowWrites}; its update count. {@code
   * known}: also only if the columns the SET keeps (review, cancel request) are still the prior
   * row's, and with its instants at the columns' precision, so the row it writes is {@link
   * WrittenFlows#afterTransition}.
   */
  private static int casState(Connection c, TransitionWrite w, boolean known) throws SQLException {
    return update(c, known ? CAS_KNOWN : CAS, ps -> bindCas(ps, w, known));
  }

  private static final String CAS =
      """
        UPDATE pay_flow_state
           SET status = ?, version = version + 1, retry_count = 0, next_retry_time = ?,
               lease_owner = ?, last_error_code = ?,
               channel_request_id = COALESCE(?, channel_request_id),
               review_reason = CASE WHEN review_state = 'ESCALATED' THEN NULL
                                    ELSE review_reason END,
               review_state = CASE WHEN review_state = 'ESCALATED' THEN 'NONE'
                                   ELSE review_state END,
               updated_at = ?
         WHERE id = ? AND status = ? AND version = ? AND review_state <> 'FROZEN'
           AND (? IS NULL OR lease_owner = ?)
        """;

  private static final String CAS_KNOWN =
      CAS
          + """
             AND review_state = ? AND review_reason <=> ? AND cancel_requested_at <=> ?
          """;

  private static void bindCas(PreparedStatement ps, TransitionWrite w, boolean known)
      throws SQLException {
    PayFlow from = w.from();
    int i = 1;
    ps.setString(i++, w.to().name());
    ps.setObject(i++, ts(known ? WrittenFlows.stored(w.nextRetryTime()) : w.nextRetryTime()));
    ps.setString(i++, w.leaseToken());
    ps.setString(i++, w.errorCode());
    ps.setString(i++, w.note().requestId());
    ps.setObject(i++, ts(known ? WrittenFlows.stored(w.now()) : w.now()));
    ps.setLong(i++, from.id());
    ps.setString(i++, from.status().name());
    ps.setLong(i++, from.version());
    ps.setString(i++, w.holder());
    ps.setString(i++, w.holder());
    if (known) {
      ps.setString(i++, from.reviewState().name());
      ps.setString(i++, from.reviewReason());
      ps.setObject(i, ts(from.cancelRequestedAt()));
    }
  }

  private static void insertHistory(
      Connection c,
      PayFlow row,
      String fromStatus,
      String trigger,
      String requestId,
      String resultClass,
      String errorCode,
      long elapsedMillis,
      Instant now)
      throws SQLException {
    requireOne(
        update(
            c,
            """
            INSERT INTO pay_flow_history (flow_id, biz_key, attempt_no, trade_order_no,
                   refund_order_no, from_status, to_status, version, trigger_source, request_id,
                   result_class, error_code, elapsed_ms, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            ps -> {
              int i = 1;
              ps.setLong(i++, row.id());
              ps.setString(i++, row.goal().bizKey());
              ps.setInt(i++, row.attemptNo());
              ps.setString(i++, row.tradeOrderNo());
              ps.setString(i++, row.refundOrderNo());
              ps.setString(i++, fromStatus);
              ps.setString(i++, row.status().name());
              ps.setLong(i++, row.version());
              ps.setString(i++, trigger);
              ps.setString(i++, requestId);
              ps.setString(i++, resultClass);
              ps.setString(i++, errorCode);
              ps.setLong(i++, elapsedMillis);
              ps.setObject(i, ts(now));
            }),
        "history of " + row.id());
  }

  /** The outbox row of a flow's event, on the flow's shard (routed by aggregate_id). */
  static int insertEvent(Connection c, PayFlow row, DomainEvent event, Instant now)
      throws SQLException {
    return update(
        c,
        "INSERT INTO outbox_event (event_id, event_type, aggregate_id, merchant_id, payload,"
            + " created_at) VALUES (?, ?, ?, ?, "
            + EVENT_PAYLOAD
            + ", ?)",
        ps -> {
          int i = 1;
          ps.setString(i++, DomainEvent.eventId(row.id(), row.version()));
          ps.setString(i++, event.name());
          ps.setLong(i++, row.id());
          ps.setString(i++, row.goal().merchant());
          ps.setLong(i++, row.id());
          ps.setString(i++, row.goal().merchant());
          ps.setLong(i++, row.goal().userId());
          ps.setString(i++, row.goal().scene());
          ps.setString(i++, row.goal().bizKey());
          ps.setInt(i++, row.attemptNo());
          ps.setString(i++, row.tradeOrderNo());
          ps.setString(i++, row.refundOrderNo());
          ps.setLong(i++, row.amount());
          ps.setString(i++, row.currency());
          ps.setString(i++, row.status().name());
          ps.setLong(i++, row.version());
          ps.setObject(i, ts(now));
        });
  }

  @Override
  public void assignOrderNumbers(long flowId, OrderNumbers numbers, Instant now) {
    try {
      Sql.inTransaction(dataSource, c -> assignOrderNumbers(c, flowId, numbers, now));
    } catch (SQLException e) {
      throw new StoreException("assign order numbers of flow " + flowId, e);
    }
  }

  /** The order numbers where missing (0 rows: already there), the state's updated_at with them. */
  private static int assignOrderNumbers(
      Connection c, long flowId, OrderNumbers numbers, Instant now) throws SQLException {
    int numbered =
        update(
            c,
            "UPDATE pay_flow_fact SET trade_order_no = ?, refund_order_no = ?"
                + " WHERE id = ? AND trade_order_no IS NULL",
            ps -> {
              ps.setString(1, numbers.tradeOrderNo());
              ps.setString(2, numbers.refundOrderNo());
              ps.setLong(3, flowId);
            });
    if (numbered == 1) {
      update(
          c,
          "UPDATE pay_flow_state SET updated_at = ? WHERE id = ?",
          ps -> {
            ps.setObject(1, ts(now));
            ps.setLong(2, flowId);
          });
    }
    return numbered;
  }

  private static int update(Connection c, String sql, Sql.Binder binder) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      binder.bind(ps);
      return ps.executeUpdate();
    }
  }

  private static void requireOne(int rows, String what) throws SQLException {
    if (rows != 1) {
      throw new SQLException(what + ": " + rows + " rows written, expected 1");
    }
  }
}
