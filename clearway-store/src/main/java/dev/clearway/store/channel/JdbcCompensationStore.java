package dev.clearway.store.channel;

import dev.clearway.core.channel.port.AttemptStore.RecordResult;
import dev.clearway.core.channel.port.CompensationStore;
import dev.clearway.store.PostgresDialect;
import dev.clearway.store.Sql;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * {@code attempt_compensation} on PostgreSQL and the MySQL family ({@link
 * MysqlCompensationStatements}). Claims push a compensation's due time to the lease's end and bump
 * its version, which fences the claimant's update; a settled compensation and its outbox event
 * commit in one transaction, here.
 */
public final class JdbcCompensationStore implements CompensationStore {

  private static final int CODE_MAX = 64;

  private final DataSource dataSource;
  private final SqlDialect dialect;
  private final Sql sql;
  private final ChannelTransaction tx;

  /** A store on PostgreSQL. */
  public JdbcCompensationStore(DataSource dataSource) {
    this(dataSource, new PostgresDialect());
  }

  public JdbcCompensationStore(DataSource dataSource, SqlDialect dialect) {
    this.dataSource = dataSource;
    this.dialect = dialect;
    this.sql = new Sql(dataSource);
    this.tx = new ChannelTransaction(dataSource);
  }

  @Override
  public boolean openCompensation(Compensation k, Instant now) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                dialect.insertIfAbsent(
                    """
                    INSERT INTO attempt_compensation (attempt_id, trade_order_no, refund_no,
                      amount, status, reason, due_at, created_at, updated_at)
                    VALUES (?, ?, ?, ?, 'PENDING', ?, ?, ?, ?)
                    """,
                    "attempt_id"))) {
      ps.setLong(1, k.attemptId());
      ps.setString(2, k.tradeOrderNo());
      ps.setString(3, k.refundNo());
      ps.setLong(4, k.amount());
      ps.setString(5, Sql.truncate(k.reason(), CODE_MAX));
      ps.setObject(6, Sql.ts(now));
      ps.setObject(7, Sql.ts(now));
      ps.setObject(8, Sql.ts(now));
      return dialect.executeIfAbsent(ps);
    } catch (SQLException e) {
      throw new StoreException("open compensation", e);
    }
  }

  @Override
  public List<Compensation> claimCompensations(int limit, Duration lease, Instant now) {
    // SKIP LOCKED: two workers never claim the same compensation. The claim pushes due_at out to
    // the lease's end (nobody else takes it meanwhile) and bumps the version, which fences the
    // claimant's update: a worker whose claim was taken over after it expired writes nothing.
    if (!dialect.writesReturnRows()) {
      return sql.transaction(
          "claim compensations",
          c -> MysqlCompensationStatements.claim(c, limit, lease, now, JdbcCompensationStore::row));
    }
    return sql.query(
        """
        WITH due AS (
          SELECT attempt_id FROM attempt_compensation
          WHERE status = 'PENDING' AND due_at <= ?
          ORDER BY due_at LIMIT ?
          FOR UPDATE SKIP LOCKED)
        UPDATE attempt_compensation k SET due_at = ?, version = version + 1, updated_at = ?
        FROM due WHERE k.attempt_id = due.attempt_id
        RETURNING k.attempt_id, k.trade_order_no, k.refund_no, k.amount, k.status, k.reason,
          k.tries, k.version
        """,
        ps -> {
          ps.setObject(1, Sql.ts(now));
          ps.setInt(2, limit);
          ps.setObject(3, Sql.ts(now.plus(lease)));
          ps.setObject(4, Sql.ts(now));
        },
        JdbcCompensationStore::row);
  }

  private static Compensation row(java.sql.ResultSet rs) throws SQLException {
    return new Compensation(
        rs.getLong("attempt_id"),
        rs.getString("trade_order_no"),
        rs.getString("refund_no"),
        rs.getLong("amount"),
        rs.getString("status"),
        rs.getString("reason"),
        rs.getInt("tries"),
        rs.getLong("version"));
  }

  @Override
  public boolean updateCompensation(
      Compensation expected, String status, String error, Instant dueAt, Instant now) {
    if ("PENDING".equals(status)) {
      return sql.update(UPDATE_COMPENSATION, ps -> bind(ps, expected, status, error, dueAt, now))
          == 1;
    }
    // A settled compensation and its domain event commit together.
    return tx.run(
            "settle compensation",
            c -> {
              try (PreparedStatement ps = c.prepareStatement(UPDATE_COMPENSATION)) {
                bind(ps, expected, status, error, dueAt, now);
                if (ps.executeUpdate() != 1) {
                  return RecordResult.LOST; // Race: another worker settled it first.
                }
              }
              settledEvent(c, expected, status, now, dialect.sharded());
              return RecordResult.RECORDED;
            })
        == RecordResult.RECORDED;
  }

  /**
   * The settled compensation's event; {@code sharded}: through a sharding driver, which does not
   * rewrite the merchant's subquery inside VALUES, so the merchant is read by a statement of its
   * own.
   */
  private static void settledEvent(
      Connection c, Compensation k, String status, Instant now, boolean sharded)
      throws SQLException {
    String type =
        "REFUNDED".equals(status) ? "DuplicateChargeRefunded" : "DuplicateChargeNeedsReview";
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("attemptId", k.attemptId());
    fields.put("tradeOrderNo", k.tradeOrderNo());
    fields.put("refundNo", k.refundNo());
    fields.put("amount", k.amount());
    fields.put("status", status);
    String payload = AttemptEventRows.json(fields);
    // The version makes the id unique: a compensation a person sent back to the worker may become
    // MANUAL a second time.
    String eventId = "compensation-" + k.attemptId() + "-" + status + "-v" + (k.version() + 1);
    if (sharded) {
      AttemptEventRows.insertOutboxValues(
          c, eventId, type, k.attemptId(), k.tradeOrderNo(), payload, now);
    } else {
      AttemptEventRows.insertOutbox(
          c, eventId, type, k.attemptId(), k.tradeOrderNo(), payload, now);
    }
  }

  private static final String UPDATE_COMPENSATION =
      """
      UPDATE attempt_compensation SET status = ?, last_error = ?, due_at = ?,
        tries = tries + 1, version = version + 1, updated_at = ?
      WHERE attempt_id = ? AND version = ? AND status = 'PENDING'
      """;

  private static void bind(
      PreparedStatement ps, Compensation k, String status, String error, Instant dueAt, Instant now)
      throws SQLException {
    ps.setString(1, status);
    ps.setString(2, Sql.truncate(error, CODE_MAX));
    ps.setObject(3, Sql.ts(dueAt));
    ps.setObject(4, Sql.ts(now));
    ps.setLong(5, k.attemptId());
    ps.setLong(6, k.version());
  }
}
