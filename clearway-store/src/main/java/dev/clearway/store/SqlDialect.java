package dev.clearway.store;

/**
 * The seam between portable SQL and what one database does its own way, in the manner of
 * db-scheduler's {@code JdbcCustomization}. PostgreSQL is the only implementation today; a MySQL 8
 * dialect plugs in here (SKIP LOCKED exists there; RETURNING does not, so its transitions become
 * UPDATE then SELECT in one transaction; {@code ON CONFLICT DO NOTHING} becomes {@code INSERT
 * IGNORE}).
 *
 * <p>What it covers: every page claim ({@code FOR UPDATE SKIP LOCKED}) of a leased table, every
 * state transition of the flow, refund and late-charge stores (each a CAS with {@code RETURNING},
 * the flow's and the refund's with their history and outbox rows in one statement), and the
 * insert-if-absent statements of the late-charge check and the callback inbox ({@code ON
 * CONFLICT}). What it does not cover yet: the {@code RETURNING} of the creation statements
 * (JdbcFlowStore.createAttempt, JdbcRefundStore.create) and the statements of the idempotency,
 * outbox, review, sweep and channel stores, which are PostgreSQL text in their store.
 */
public interface SqlDialect {

  /** Flyway location of this dialect's migrations. */
  String migrationLocation();

  /**
   * CAS transition of a flow that also appends the history row, returning the updated row.
   * Parameters, in order: to_status, next_retry_time, lease_owner, error_code, request_id,
   * updated_at, id, from_status, from_version, the writer's lease token twice (null: a command,
   * fenced by the version alone); then for history: from_status, trigger, request_id, result_class,
   * error_code, elapsed_ms, created_at; then for the outbox: event_type, created_at, event_type
   * again (null: no event).
   */
  String transitionSql();

  /**
   * CAS transition of a refund order fenced by the writer's lease, with its history and outbox
   * rows, returning the updated row ({@code RefundRows.COLUMNS}). Parameters, in order: to_status,
   * next_retry_time, lease_owner, error_code, request_id, updated_at, id, from_status,
   * from_version, the writer's token; then for history: from_status, trigger, request_id,
   * result_class, error_code, elapsed_ms, created_at; then for the outbox: event_type, created_at,
   * event_type again (null: no event).
   */
  String refundTransitionSql();

  /**
   * CAS transition of a late-charge check fenced by the writer's lease, returning the updated row
   * ({@code LateChargeRows.COLUMNS}). Parameters, in order: to_status, next_check_time,
   * lease_owner, last_result, error_code, refund_id (null keeps it), updated_at, id, from_status,
   * from_version, the writer's token.
   */
  String lateChargeTransitionSql();

  /**
   * Claims a page of due rows of a leased table and returns their ids. Parameters, in order: now,
   * after_id, limit, lease_owner, lease_until.
   */
  String claimDueSql(LeasedTable.Shape table);

  /**
   * {@code insert} (an INSERT ... VALUES or INSERT ... SELECT) that writes nothing, and fails
   * nothing, when a row with the same {@code conflictColumns} exists; its update count tells.
   */
  String insertIfAbsent(String insert, String conflictColumns);

  /**
   * {@code insert} that writes nothing, and fails nothing, when any unique key (a partial unique
   * index included) already holds a row like it; its update count tells.
   */
  String insertIfAbsentAnyKey(String insert);

  /**
   * Takes the lease of a page of due reconciliation differences and returns their ids, oldest due
   * first: OPEN or AUTO_REPAIRING, actionable, with no lease or an expired one. Parameters, in
   * order: now, now, limit, lease_owner, lease_until, updated_at.
   */
  String claimDifferencesSql();

  /**
   * Fills the session's temporary table {@code recon_agreed (line_no, trade_order_no, refunding,
   * unsettled)} with the charge lines of one file that agree exactly with their local row: the line
   * names one flow (its attempt key, if any, names no attempt of another trade order), the flow is
   * BIZ_SUCCESS, REFUNDING or REFUNDED, currency and amount are the flow's, the fee is the
   * account's expected fee, and the payment has no settlement row other than SETTLED; {@code
   * refunding} says the flow was REFUNDING or REFUNDED (a BIZ_SUCCESS flow never changes again),
   * {@code unsettled} that the payment had no settlement row yet. Parameters, in order: file_id,
   * file_id, account_ref, fee rate (parts per million), fixed fee (minor units).
   */
  String agreeingLinesSql();
}
