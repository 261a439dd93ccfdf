package dev.clearway.store;

/**
 * The seam between portable SQL and what one database does its own way. PostgreSQL is the only
 * implementation today; MySQL 8 can follow (SKIP LOCKED exists there, RETURNING does not, so its
 * transition becomes UPDATE then SELECT in one transaction).
 */
public interface SqlDialect {

  /** Flyway location of this dialect's migrations. */
  String migrationLocation();

  /**
   * CAS transition that also appends the history row, returning the updated row. Parameters, in
   * order: to_status, next_retry_time, lease_owner, error_code, request_id, updated_at, id,
   * from_status, from_version, the writer's lease token twice (null: a command, fenced by the
   * version alone); then for history: from_status, trigger, request_id, result_class, error_code,
   * elapsed_ms, created_at; then for the outbox: event_type, created_at, event_type again (null: no
   * event).
   */
  String transitionSql();

  /**
   * Claims a page of due flows. Parameters, in order: now, after_id, limit, lease_owner,
   * lease_until. Returns the claimed ids.
   */
  String claimDueSql();
}
