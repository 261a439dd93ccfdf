package dev.clearway.store;

/** PostgreSQL: data-modifying CTEs keep a transition and its history in one statement. */
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
  public String migrationLocation() {
    return "classpath:db/migration/postgresql";
  }

  @Override
  public String transitionSql() {
    // Race: a worker whose lease expired and was taken over may still try this; the lease fence
    // (lease_owner = the writer's own token) refuses it even before the new holder has written,
    // and the (status, version) guard refuses any writer that read the row before it moved. A
    // command (holder null) holds no lease and is fenced by the version alone. A frozen flow
    // takes no automatic transition. A transition opens a new stage: an escalation of the
    // previous stage is cleared.
    return """
        WITH moved AS (
          UPDATE pay_flow
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
          RETURNING %s
        ), hist AS (
          INSERT INTO pay_flow_history (flow_id, biz_key, attempt_no, trade_order_no,
                 refund_order_no, from_status, to_status, version, trigger_source, request_id,
                 result_class, error_code, elapsed_ms, created_at)
          SELECT id, biz_key, attempt_no, trade_order_no, refund_order_no, ?, status, version,
                 ?, ?, ?, ?, ?, ?
            FROM moved
        ), evt AS (
          INSERT INTO outbox_event (event_id, event_type, aggregate_id, merchant_id, payload,
                                    created_at)
          SELECT 'flow-' || id || '-v' || version, ?, id, merchant_id, %s, ?
            FROM moved
           WHERE ?::text IS NOT NULL
        )
        SELECT %s FROM moved
        """
        .formatted(FLOW_COLUMNS, EVENT_PAYLOAD, FLOW_COLUMNS);
  }

  @Override
  public String claimDueSql() {
    // SKIP LOCKED: two scanners never claim the same row; the lease (next_retry_time in the
    // future, lease_owner set) keeps it out of the next rounds until it expires.
    return """
        WITH due AS (
          SELECT id FROM pay_flow
           WHERE status IN ('WAIT_PAY', 'PAYING', 'PAYED', 'REFUNDING')
             AND review_state <> 'FROZEN'
             AND next_retry_time <= ?
             AND id > ?
           ORDER BY id
           LIMIT ?
             FOR UPDATE SKIP LOCKED
        )
        UPDATE pay_flow f SET lease_owner = ?, next_retry_time = ?
          FROM due WHERE f.id = due.id
        RETURNING f.id
        """;
  }
}
