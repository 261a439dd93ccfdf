package dev.clearway.store.channel;

import dev.clearway.core.channel.policy.Operation;
import dev.clearway.core.channel.policy.RecordedAttempt;
import dev.clearway.core.channel.policy.RecordedHistory;
import dev.clearway.store.Sql;
import dev.clearway.store.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * The recorded history a policy dry run replays: payment attempts (all of them creates) with their
 * channel (from the channel account), their payment method family (from the payment order, such as
 * {@code card}), when they started, when they reached SUCCEEDED or FAILED, and how many recovery
 * calls they cost. Read-only; no amounts or customer data leave the database.
 *
 * <p>{@code resolvedAt} is the first history entry into SUCCEEDED or FAILED; a final attempt
 * without one (written final directly) falls back to its {@code updated_at}; null while the attempt
 * is live. {@code recoveryCalls} counts the evidence of recovery calls: queries (source QUERY) and
 * idempotent replays (operation REPLAY).
 *
 * <p>A read is one REPEATABLE READ, read-only transaction on one connection: the end of the history
 * and every page see the same snapshot. Pages follow the key (created_at, id) of the last attempt
 * read, through {@code idx_attempt_created (created_at, id)}, so each page costs the same however
 * deep into the week it is.
 */
public final class JdbcRecordedAttempts implements RecordedHistory {

  /** The attempts of a read: every attempt created at or after the read's start. */
  private static final String ATTEMPTS =
      """
        FROM payment_attempt a
        JOIN channel_account ca ON ca.id = a.channel_account_id
        JOIN payment_order o ON o.trade_order_no = a.trade_order_no
       WHERE a.created_at >= ?
      """;

  /** When an attempt's outcome became known (see the class comment). */
  private static final String RESOLVED_AT =
      """
      COALESCE(
        (SELECT min(h.at) FROM payment_attempt_history h
          WHERE h.attempt_id = a.id AND h.to_status IN ('SUCCEEDED', 'FAILED')),
        CASE WHEN a.status IN ('SUCCEEDED', 'FAILED') THEN a.updated_at END
      )
      """;

  private static final String END =
      "SELECT max(a.created_at) AS created, max(" + RESOLVED_AT + ") AS resolved " + ATTEMPTS;

  private static final String PAGE =
      "SELECT a.id, ca.channel, o.payment_method, a.created_at, "
          + RESOLVED_AT
          + """
           AS resolved_at,
             (SELECT count(*) FROM provider_evidence e
               WHERE e.attempt_id = a.id AND (e.source = 'QUERY' OR e.operation = 'REPLAY')
             ) AS recovery_calls
          """
          + ATTEMPTS
          + """
             AND (a.created_at, a.id) > (?, ?)
           ORDER BY a.created_at, a.id
           LIMIT ?
          """;

  private final DataSource dataSource;

  public JdbcRecordedAttempts(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  @Override
  public Reading open(Instant from) {
    Connection c = null;
    try {
      c = dataSource.getConnection();
      c.setAutoCommit(false);
      c.setReadOnly(true);
      c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      return new Snapshot(c, from);
    } catch (SQLException e) {
      Snapshot.release(c);
      throw new StoreException("open recorded history", e);
    }
  }

  /** One consistent read; holds its connection until closed. */
  private static final class Snapshot implements Reading {
    private final Connection c;
    private final Instant from;
    private Instant asOf;
    private boolean endRead;
    private Instant lastCreated;
    private long lastId;

    Snapshot(Connection c, Instant from) {
      this.c = c;
      this.from = from;
      this.lastCreated = from;
      this.lastId = 0;
    }

    @Override
    public Instant asOf() {
      if (!endRead) {
        asOf = readEnd();
        endRead = true;
      }
      return asOf;
    }

    private Instant readEnd() {
      try (PreparedStatement ps = c.prepareStatement(END)) {
        ps.setObject(1, Sql.ts(from));
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          Instant created = instant(rs, "created");
          Instant resolved = instant(rs, "resolved");
          return resolved != null && (created == null || resolved.isAfter(created))
              ? resolved
              : created;
        }
      } catch (SQLException e) {
        throw new StoreException("end of recorded history", e);
      }
    }

    @Override
    public List<RecordedAttempt> next(int limit) {
      if (limit < 1) {
        throw new IllegalArgumentException("limit must be positive");
      }
      List<RecordedAttempt> page = new ArrayList<>(Math.min(limit, 1_000));
      try (PreparedStatement ps = c.prepareStatement(PAGE)) {
        ps.setObject(1, Sql.ts(from));
        ps.setObject(2, Sql.ts(lastCreated));
        ps.setLong(3, lastId);
        ps.setInt(4, limit);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            page.add(attempt(rs));
          }
        }
      } catch (SQLException e) {
        throw new StoreException("page of recorded history", e);
      }
      if (!page.isEmpty()) {
        RecordedAttempt last = page.get(page.size() - 1);
        lastCreated = last.createdAt();
        lastId = last.attemptId();
      }
      return page;
    }

    @Override
    public void close() {
      release(c);
    }

    /** Ends the read-only transaction and hands the connection back as the pool lent it. */
    static void release(Connection c) {
      if (c == null) {
        return;
      }
      try (c) {
        c.rollback();
        c.setAutoCommit(true);
        c.setReadOnly(false);
        c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
      } catch (SQLException e) {
        throw new StoreException("close recorded history", e);
      }
    }
  }

  private static RecordedAttempt attempt(ResultSet rs) throws SQLException {
    return new RecordedAttempt(
        rs.getLong("id"),
        rs.getString("channel"),
        rs.getString("payment_method"),
        Operation.CREATE,
        instant(rs, "created_at"),
        instant(rs, "resolved_at"),
        rs.getInt("recovery_calls"));
  }

  private static Instant instant(ResultSet rs, String column) throws SQLException {
    OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }
}
