package dev.clearway.store;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.store.refund.RefundRows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * PostgreSQL: data-modifying CTEs keep a transition and its history in one statement; {@code FOR
 * UPDATE SKIP LOCKED} claims pages; {@code ON CONFLICT DO NOTHING} inserts if absent.
 */
public final class PostgresDialect implements SqlDialect {

  static final String FLOW_COLUMNS =
      "id, merchant_id, user_id, scene, biz_key, attempt_no, trade_order_no, refund_order_no, status, version,"
          + " amount, currency, biz_deadline_time, next_retry_time, retry_count, last_error_code,"
          + " review_state, review_reason, lease_owner, created_at, updated_at,"
          + " cancel_requested_at";

  /** The outbox payload of a flow event, built from the row just written. */
  static final String EVENT_PAYLOAD =
      "json_build_object('flowId', id, 'merchantId', merchant_id, 'userId', user_id, 'scene', scene, 'bizKey', biz_key,"
          + " 'attemptNo', attempt_no, 'tradeOrderNo', trade_order_no, 'refundOrderNo',"
          + " refund_order_no, 'amount', amount, 'currency', currency, 'status', status,"
          + " 'version', version)::text";

  @Override
  public String name() {
    return "PostgreSQL";
  }

  @Override
  public boolean writesReturnRows() {
    return true;
  }

  @Override
  public void setTextList(Connection c, PreparedStatement ps, int index, List<String> values)
      throws SQLException {
    if (values == null) {
      ps.setNull(index, java.sql.Types.ARRAY);
    } else {
      ps.setArray(index, c.createArrayOf("text", values.toArray()));
    }
  }

  @Override
  public String flowEventPayload() {
    return EVENT_PAYLOAD;
  }

  @Override
  public String migrationLocation() {
    return "classpath:db/migration/postgresql";
  }

  @Override
  public Map<String, String> poolProperties(Database.Timeouts timeouts) {
    // PgJDBC: the socket timeout in seconds, and the server's statement_timeout per session.
    return Map.of(
        "socketTimeout",
        Long.toString(timeouts.socketSeconds()),
        "options",
        "-c statement_timeout=" + timeouts.statement().toMillis());
  }

  @Override
  public boolean executeIfAbsent(PreparedStatement insert) throws SQLException {
    return insert.executeUpdate() == 1;
  }

  @Override
  public <T> Optional<T> updateReturning(
      Connection c,
      String update,
      Sql.Binder binder,
      RowRef row,
      String columns,
      Sql.RowMapper<T> mapper)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(update.stripTrailing() + "\nRETURNING " + columns)) {
      binder.bind(ps);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(mapper.map(rs)) : Optional.empty();
      }
    }
  }

  @Override
  public <T> List<T> claimPage(Connection c, ClaimPage page, Sql.RowMapper<T> mapper)
      throws SQLException {
    // SKIP LOCKED: two claimers never take the same row; one statement chooses, locks and writes.
    String returning =
        Arrays.stream(page.columns().split(","))
            .map(col -> "t." + col.strip())
            .collect(Collectors.joining(", "));
    String statement =
        "WITH due AS (\n%s\n)\nUPDATE %s t SET %s\n  FROM due WHERE t.id = due.id\nRETURNING %s"
            .formatted(page.select(), page.table(), page.set(), returning);
    try (PreparedStatement ps = c.prepareStatement(statement)) {
      page.setParams().bind(ps, page.selectParams().bind(ps, 1));
      List<T> rows = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(mapper.map(rs));
        }
      }
      return rows;
    }
  }

  @Override
  public List<Long> claimDue(
      Sql sql, LeasedTable.Shape table, long afterId, int limit, Lease lease, Instant now) {
    return sql.query(
        claimDueSql(table),
        ps -> {
          ps.setObject(1, ts(now));
          ps.setLong(2, afterId);
          ps.setInt(3, limit);
          ps.setString(4, lease.token());
          ps.setObject(5, ts(lease.until()));
        },
        rs -> rs.getLong(1));
  }

  @Override
  public String transitionSql() {
    // Race: a worker whose lease expired and was taken over may still try this; the lease fence
    // (lease_owner = the writer's own token) refuses it even before the new holder has written,
    // and the (status, version) guard refuses any writer that read the row before it moved. A
    // command (holder null) holds no lease and is fenced by the version alone. A frozen flow
    // takes no automatic transition. A transition opens a new stage: an escalation of the
    // previous stage is cleared.
    // The update touches only the narrow state row (its primary key and the due index); the facts
    // are joined for the history row, the event and the row returned.
    return """
        WITH moved AS (
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
             AND (?::text IS NULL OR lease_owner = ?)
          RETURNING *
        ), flow AS (
          SELECT %s FROM moved JOIN pay_flow_fact USING (id)
        ), hist AS (
          INSERT INTO pay_flow_history (flow_id, biz_key, attempt_no, trade_order_no,
                 refund_order_no, from_status, to_status, version, trigger_source, request_id,
                 result_class, error_code, elapsed_ms, created_at)
          SELECT id, biz_key, attempt_no, trade_order_no, refund_order_no, ?, status, version,
                 ?, ?, ?, ?, ?, ?
            FROM flow
        ), evt AS (
          INSERT INTO outbox_event (event_id, event_type, aggregate_id, merchant_id, payload,
                                    created_at)
          SELECT 'flow-' || id || '-v' || version, ?, id, merchant_id, %s, ?
            FROM flow
           WHERE ?::text IS NOT NULL
        )
        SELECT %s FROM flow
        """
        .formatted(FLOW_COLUMNS, EVENT_PAYLOAD, FLOW_COLUMNS);
  }

  @Override
  public String transitionGroupSql() {
    // The same CAS as transitionSql, row by row, for several flows in one statement and one commit:
    // each write applies only to its own row, only while that row still has the status and version
    // the writer read and is held by the writer's own lease token; a write whose row does not match
    // changes nothing and returns no row, whatever the others do. Every write here is a worker's
    // (fenced by its lease). Timestamps travel as ISO-8601 text.
    return """
        WITH w AS (
          SELECT * FROM unnest(?::bigint[], ?::text[], ?::bigint[], ?::text[], ?::text[],
                               ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[],
                               ?::bigint[], ?::text[], ?::text[])
            AS u(w_id, w_from, w_version, w_to, w_next_retry, w_lease, w_holder, w_error,
                 w_request, w_trigger, w_class, w_elapsed, w_now, w_event)
        ), moved AS (
          UPDATE pay_flow_state s
             SET status = w.w_to, version = s.version + 1, retry_count = 0,
                 next_retry_time = w.w_next_retry::timestamptz, lease_owner = w.w_lease,
                 last_error_code = w.w_error,
                 channel_request_id = COALESCE(w.w_request, s.channel_request_id),
                 review_reason = CASE WHEN s.review_state = 'ESCALATED' THEN NULL
                                      ELSE s.review_reason END,
                 review_state = CASE WHEN s.review_state = 'ESCALATED' THEN 'NONE'
                                     ELSE s.review_state END,
                 updated_at = w.w_now::timestamptz
            FROM w
           WHERE s.id = w.w_id AND s.status = w.w_from AND s.version = w.w_version
             AND s.review_state <> 'FROZEN' AND s.lease_owner = w.w_holder
          RETURNING s.*
        ), flow AS (
          SELECT %s FROM moved JOIN pay_flow_fact USING (id)
        ), hist AS (
          INSERT INTO pay_flow_history (flow_id, biz_key, attempt_no, trade_order_no,
                 refund_order_no, from_status, to_status, version, trigger_source, request_id,
                 result_class, error_code, elapsed_ms, created_at)
          SELECT id, biz_key, attempt_no, trade_order_no, refund_order_no, w_from, status, version,
                 w_trigger, w_request, w_class, w_error, w_elapsed, w_now::timestamptz
            FROM flow JOIN w ON w_id = id
        ), evt AS (
          INSERT INTO outbox_event (event_id, event_type, aggregate_id, merchant_id, payload,
                                    created_at)
          SELECT 'flow-' || id || '-v' || version, w_event, id, merchant_id, %s,
                 w_now::timestamptz
            FROM flow JOIN w ON w_id = id
           WHERE w_event IS NOT NULL
        )
        SELECT %s FROM flow
        """
        .formatted(FLOW_COLUMNS, EVENT_PAYLOAD, FLOW_COLUMNS);
  }

  @Override
  public String refundTransitionSql() {
    // Race: a worker whose lease expired and was taken over may still try this; the lease fence
    // (lease_owner = the writer's own token) refuses it even before the new holder has written,
    // and the (status, version) guard refuses a writer that read the row before it moved.
    return """
        WITH moved AS (
          UPDATE refund_order
             SET status = ?, version = version + 1, retry_count = 0, next_retry_time = ?,
                 lease_owner = ?, last_error_code = ?,
                 channel_request_id = COALESCE(?, channel_request_id), updated_at = ?
           WHERE id = ? AND status = ? AND version = ? AND lease_owner = ?
          RETURNING %s
        ), hist AS (
          INSERT INTO refund_order_history (refund_id, flow_id, refund_no, from_status,
                 to_status, version, trigger_source, request_id, result_class, error_code,
                 elapsed_ms, created_at)
          SELECT id, flow_id, refund_no, ?, status, version, ?, ?, ?, ?, ?, ?
            FROM moved
        ), evt AS (
          INSERT INTO outbox_event (event_id, event_type, aggregate_id, merchant_id, payload,
                                    created_at)
          SELECT 'refund-' || id || '-v' || version, ?, flow_id, merchant_id,
                 json_build_object('refundId', id, 'flowId', flow_id, 'merchantId', merchant_id,
                                   'refundNo', refund_no,
                                   'tradeOrderNo', trade_order_no, 'amount', amount,
                                   'currency', currency, 'status', status)::text, ?
            FROM moved
           WHERE ?::text IS NOT NULL
        )
        SELECT %s FROM moved
        """
        .formatted(RefundRows.COLUMNS, RefundRows.COLUMNS);
  }

  /**
   * Claims a page of due rows of a leased table and returns their ids. Parameters, in order: now,
   * after_id, limit, lease_owner, lease_until.
   */
  public String claimDueSql(LeasedTable.Shape t) {
    return claimDueRowsSql(t, "id");
  }

  @Override
  public String claimDueRowsSql(LeasedTable.Shape t, String columns) {
    // SKIP LOCKED: two scanners never claim the same row; the lease (the due column in the
    // future, lease_owner set) keeps it out of the next rounds until it expires. The open filter
    // matches the predicate of the table's partial scan index, so the page is read from it. A table
    // whose write-once facts live apart returns the claimed rows joined with their facts.
    String facts = t.factsTable() == null ? "" : " JOIN " + t.factsTable() + " USING (id)";
    return """
        WITH due AS (
          SELECT id FROM %1$s
           WHERE %3$s
             AND %2$s <= ?
             AND id > ?
           ORDER BY id
           LIMIT ?
             FOR UPDATE SKIP LOCKED
        ), moved AS (
          UPDATE %1$s t SET lease_owner = ?, %2$s = ?
            FROM due WHERE t.id = due.id
          RETURNING t.*
        )
        SELECT %4$s FROM moved%5$s
        """
        .formatted(t.table(), t.dueColumn(), t.open(), columns, facts);
  }

  @Override
  public String insertIfAbsent(String insert, String conflictColumns) {
    return insert.stripTrailing() + "\nON CONFLICT (" + conflictColumns + ") DO NOTHING\n";
  }

  @Override
  public String upsert(String insert, String conflictColumns, String updateColumns) {
    String sets =
        Arrays.stream(updateColumns.split(","))
            .map(String::strip)
            .map(col -> col + " = EXCLUDED." + col)
            .collect(Collectors.joining(", "));
    return insert.stripTrailing()
        + "\nON CONFLICT ("
        + conflictColumns
        + ") DO UPDATE SET "
        + sets
        + "\n";
  }

  @Override
  public long nextId(Connection c, String sequence) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT nextval(?)")) {
      ps.setString(1, sequence);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  @Override
  public String insertIfAbsentAnyKey(String insert) {
    return insert.stripTrailing() + "\nON CONFLICT DO NOTHING\n";
  }

  @Override
  public String claimDifferencesSql() {
    // SKIP LOCKED: two repair passes never claim the same difference; the lease (lease_owner,
    // lease_until) keeps it out of the next rounds until it expires. The state filter matches the
    // predicate of idx_recon_difference_due, so the page is read from it in due order.
    return """
        WITH due AS (
          SELECT id FROM recon_difference
           WHERE state IN ('OPEN', 'AUTO_REPAIRING')
             AND actionable_at <= ?
             AND (lease_until IS NULL OR lease_until <= ?)
           ORDER BY actionable_at, id
           LIMIT ?
             FOR UPDATE SKIP LOCKED
        )
        UPDATE recon_difference d
           SET lease_owner = ?, lease_until = ?, version = d.version + 1, updated_at = ?
          FROM due WHERE d.id = due.id
        RETURNING d.id
        """;
  }

  @Override
  public String agreeingLinesSql() {
    // The conditions under which the matcher reports nothing for the line (ChargeLineClassifier,
    // Settlement); a NULL column never agrees. The fee (AccountTerms.expectedChargeFee, half up,
    // bigint arithmetic as there: the amount is positive, so / is floorDiv) is the flow's amount's,
    // so every condition on the line alone is one the planner estimates from the statistics and
    // the two sets are joined by hash. Only the lines that do not agree, and the agreeing ones of
    // a refunding flow, are kept (a handful in a clean file). The join's rows are kept (c) by
    // conditions without a subquery, behind OFFSET 0 (the attempt key's probe stays out), so the
    // join may run in parallel workers and pass a handful of rows through the Gather.
    return """
        CREATE TEMPORARY TABLE recon_lines AS
        SELECT w.line_no, w.trade_order_no, w.refunding, w.agreed
          FROM (SELECT c.line_no, c.trade_order_no, c.refunding, c.candidate
                         AND (c.attempt_key IS NULL OR NOT EXISTS (
                               SELECT 1 FROM payment_attempt pa
                                WHERE pa.provider_idempotency_key = c.attempt_key
                                  AND pa.trade_order_no <> c.trade_order_no)) AS agreed
                  FROM (SELECT x.* FROM (
                          SELECT l.line_no, l.trade_order_no, l.attempt_key,
                                 f.status <> 'BIZ_SUCCESS' AS refunding,
                                 COALESCE(?::boolean AND l.kind = 'CHARGE' AND l.at IS NOT NULL
                                   AND f.trade_order_no IS NOT NULL
                                   AND (s.trade_order_no IS NULL OR s.status = 'SETTLED'), FALSE)
                                   AS candidate
                            FROM statement_line l
                            LEFT JOIN pay_flow f ON f.trade_order_no = l.trade_order_no
                                  AND f.status IN ('BIZ_SUCCESS', 'REFUNDING', 'REFUNDED')
                                  AND l.currency = btrim(f.currency)
                                  AND abs(l.amount) = f.amount
                                  AND l.fee = (f.amount * ? + 500000) / 1000000 + ?
                            LEFT JOIN payment_settlement s ON s.trade_order_no = l.trade_order_no
                           WHERE l.file_id = ? AND l.kind IN ('CHARGE', 'REFUND', 'ADJUSTMENT')) x
                         WHERE NOT x.candidate OR x.attempt_key IS NOT NULL OR x.refunding
                        OFFSET 0) c) w
         WHERE NOT w.agreed OR w.refunding
        """;
  }
}
