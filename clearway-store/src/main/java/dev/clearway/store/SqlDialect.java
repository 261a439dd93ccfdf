package dev.clearway.store;

import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.port.FlowStore.Lease;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The seam between portable SQL and what one database does its own way, in the manner of
 * db-scheduler's {@code JdbcCustomization}; {@link SqlDialects#forUrl} picks the implementation
 * from the JDBC URL. {@link PostgresDialect} writes a transition, its history and its outbox row in
 * one statement (data-modifying CTEs, {@code RETURNING}); {@link MysqlDialect} (MariaDB 10.11,
 * MySQL 8) has neither, so its updates that return their row are an UPDATE then a SELECT in one
 * transaction, its page claims a {@code SELECT ... FOR UPDATE SKIP LOCKED} then an UPDATE of the
 * ids found, and its insert-if-absent a plain INSERT whose duplicate-key error means "present".
 *
 * <p>What it covers: the pool's connection properties, every page claim of a leased table, the
 * state transitions of the flow, refund and late-charge stores, the insert-if-absent statements,
 * updates that return the row they wrote, and the reconciliation claims and matcher. Statements a
 * store writes in portable SQL stay in the store.
 */
public interface SqlDialect {

  /** One row of a table, named by a unique key: the row an update wrote, to read back. */
  record RowRef(String table, String keyColumn, Object key) {}

  /** Binds parameters from index {@code first}; returns the index of the next parameter. */
  @FunctionalInterface
  interface Params {
    int bind(PreparedStatement ps, int first) throws SQLException;
  }

  /**
   * A page claim: {@code select} chooses and locks the page ({@code SELECT id FROM table ... ORDER
   * BY ... LIMIT ? FOR UPDATE SKIP LOCKED}, parameters bound by {@code selectParams}); {@code set}
   * (a SET list, parameters bound by {@code setParams}) is applied to the rows found; {@code
   * columns} (unqualified) are returned of each row as written. {@code orderIndex} names the index
   * whose order is the select's ORDER BY: InnoDB locks every row a locking read examines, so a page
   * sorted after reading would lock (and hide from the other claimers) every due row, not just the
   * page; reading that index in order stops at the LIMIT. PostgreSQL locks only the rows returned
   * and ignores it.
   */
  record ClaimPage(
      String table,
      String orderIndex,
      String select,
      Params selectParams,
      String set,
      Params setParams,
      String columns) {}

  /** The name of the database family, for logs and docs. */
  String name();

  /**
   * Whether one statement can write several tables and return the rows it wrote (data-modifying
   * CTEs, {@code INSERT/UPDATE ... RETURNING}): PostgreSQL's. The MySQL family runs such a write as
   * several statements in one transaction, in the store's MySQL statement set.
   */
  boolean writesReturnRows();

  /**
   * Binds {@code values} (null: SQL NULL) as parameter {@code index} of {@code ps}, for a column
   * that holds a list of texts: {@code TEXT[]} on PostgreSQL, a JSON array on the MySQL family.
   */
  void setTextList(Connection c, PreparedStatement ps, int index, List<String> values)
      throws SQLException;

  /**
   * Driver properties of the pool: the socket timeout and the bound on a statement (or on its lock
   * waits) of {@code timeouts}; parameters in the JDBC URL take precedence.
   */
  Map<String, String> poolProperties(Database.Timeouts timeouts);

  /**
   * Runs a single-row insert built by {@link #insertIfAbsent} or {@link #insertIfAbsentAnyKey}:
   * true when it wrote the row, false when a row with the same key existed (nothing written).
   */
  boolean executeIfAbsent(PreparedStatement insert) throws SQLException;

  /**
   * Runs {@code update}, an UPDATE (without RETURNING) of at most the one row {@code row} names,
   * and returns that row as written, read with {@code columns}; empty when nothing was updated. On
   * a connection in autocommit, the update and its read are one transaction.
   */
  <T> Optional<T> updateReturning(
      Connection c,
      String update,
      Sql.Binder binder,
      RowRef row,
      String columns,
      Sql.RowMapper<T> mapper)
      throws SQLException;

  /**
   * Claims the page {@code page} chooses, applies its SET and returns its columns of each claimed
   * row (in no particular order). On a connection in autocommit, one transaction.
   */
  <T> List<T> claimPage(Connection c, ClaimPage page, Sql.RowMapper<T> mapper) throws SQLException;

  /**
   * Claims up to {@code limit} due rows of a leased table with id above {@code afterId} (lease
   * owner and due column set to the lease) and returns their ids, in no particular order.
   */
  List<Long> claimDue(
      Sql sql, LeasedTable.Shape table, long afterId, int limit, Lease lease, Instant now);

  /**
   * Claims up to {@code limit} due rows of a leased table with id above {@code afterId} and returns
   * {@code columns} of each as the claim wrote it (joined with the table's facts, if it has them),
   * in no particular order: {@link #claimDueRowsSql} in one statement by default.
   */
  default <T> List<T> claimDueRows(
      Sql sql,
      LeasedTable.Shape table,
      long afterId,
      int limit,
      Lease lease,
      Instant now,
      String columns,
      Sql.RowMapper<T> mapper) {
    return sql.query(
        claimDueRowsSql(table, columns),
        ps -> {
          ps.setObject(1, Sql.ts(now));
          ps.setLong(2, afterId);
          ps.setInt(3, limit);
          ps.setString(4, lease.token());
          ps.setObject(5, Sql.ts(lease.until()));
        },
        mapper);
  }

  /**
   * The flow writes this database does in several statements of one transaction, where {@link
   * JdbcFlowStore} and {@link FlowCreation} otherwise write one statement each (data-modifying
   * CTEs); empty: the single statements.
   */
  default Optional<FlowWrites> flowWrites(DataSource dataSource) {
    return Optional.empty();
  }

  /**
   * The flow store's reads of one payment for a database that cannot read the view {@code pay_flow}
   * or a UNION of it with the archive (a sharding driver); empty: {@link JdbcFlowStore}'s own
   * statements.
   */
  default Optional<FlowReads> flowReads(DataSource dataSource) {
    return sharded() ? Optional.of(new ShardedFlowReads(dataSource)) : Optional.empty();
  }

  /**
   * Whether the statements pass a sharding driver (ShardingSphere-JDBC), which routes no view, no
   * {@code INSERT … SELECT} from another table than the one inserted into (unless the two are
   * bound), and no subquery into another table inside {@code VALUES}: the stores then read the flow
   * from its two tables ({@link FlowReads#SHARDED_ROWS}) and write events from values.
   */
  default boolean sharded() {
    return false;
  }

  /**
   * Whether a trade order number from outside (a callback, a webhook, a request, a statement line)
   * names no row: on a sharded database every payment's number is derived from its flow id, which
   * carries its shard, so a number of another form names no shard and no row, and the sharding
   * driver refuses a statement naming it. A lookup by it answers "none" without a statement.
   */
  default boolean namesNoRow(String tradeOrderNo) {
    return sharded() && OrderNumbers.flowIdOf(tradeOrderNo).isEmpty();
  }

  /**
   * The outbox payload of a flow event: an SQL expression over the columns of pay_flow, the JSON
   * text of the flow's identity, order numbers, money, status and version.
   */
  String flowEventPayload();

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
   * {@link #transitionSql} for several workers' transitions of distinct flows in one statement, or
   * null when the dialect writes each alone. Parameters: fourteen arrays, one element per write, in
   * order: id, from_status, from_version, to_status, next_retry_time (ISO-8601 text), lease_owner,
   * the writer's lease token, error_code, request_id, trigger, result_class, elapsed_ms, updated_at
   * (ISO-8601 text), event_type (null: no event). Returns the rows written; a write whose row
   * moved, or whose writer no longer holds the lease, returns none and changes nothing.
   */
  default String transitionGroupSql() {
    return null;
  }

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
   * Claims a page of due rows of a leased table and returns {@code columns} of each claimed row as
   * the claim wrote it (columns of the table, unqualified). Parameters, in order: now, after_id,
   * limit, lease_owner, lease_until.
   */
  String claimDueRowsSql(LeasedTable.Shape table, String columns);

  /**
   * {@code insert} (an INSERT ... VALUES or INSERT ... SELECT) that writes nothing, and fails
   * nothing, when a row with the same {@code conflictColumns} exists; its update count tells.
   */
  String insertIfAbsent(String insert, String conflictColumns);

  /**
   * {@code insert} (a single-row INSERT ... VALUES) that, when a row with the same {@code
   * conflictColumns} exists, instead sets that row's {@code updateColumns} to the values the insert
   * carried.
   */
  String upsert(String insert, String conflictColumns, String updateColumns);

  /**
   * The next value of {@code sequence} (for the MySQL family, a table of one AUTO_INCREMENT column
   * of that name), drawn on {@code c}; never handed out twice, even when the transaction rolls
   * back.
   */
  long nextId(Connection c, String sequence) throws SQLException;

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
   * Fills the session's temporary table {@code recon_lines (line_no, trade_order_no, refunding,
   * agreed)} with the money lines (charge, refund, adjustment) of one file that do not agree
   * ({@code agreed = false}, left to the matcher) and the agreeing lines whose flow was REFUNDING
   * or REFUNDED ({@code agreed}, {@code refunding}: a BIZ_SUCCESS flow never changes again); every
   * other money line of the file agrees. A charge line agrees when it agrees exactly with its local
   * row: the file is IMPORTED for the account, the line names one flow (its attempt key, if any,
   * names no attempt of another trade order), the flow is BIZ_SUCCESS, REFUNDING or REFUNDED,
   * currency and amount are the flow's, the fee is the account's expected fee, and the payment has
   * no settlement row other than SETTLED (a payment settled by an agreed line has none).
   * Parameters, in order: whether the file is IMPORTED for the account, fee rate (parts per
   * million), fixed fee (minor units), file_id.
   */
  String agreeingLinesSql();
}
