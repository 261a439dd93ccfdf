package dev.clearway.store;

import static dev.clearway.store.Sql.ts;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import javax.sql.DataSource;

/**
 * Idempotency keys of the payment API. The primary key (merchant, key) decides which of two
 * concurrent requests with one key runs; the stored request hash refuses the key with other
 * parameters; the lock lets a request that died be taken over after it expires.
 */
public final class JdbcIdempotencyStore {
  private final DataSource dataSource;
  private final SqlDialect dialect;

  /** A store on PostgreSQL. */
  public JdbcIdempotencyStore(DataSource dataSource) {
    this(dataSource, new PostgresDialect());
  }

  public JdbcIdempotencyStore(DataSource dataSource, SqlDialect dialect) {
    this.dataSource = dataSource;
    this.dialect = dialect;
  }

  /** The outcome of presenting a key. */
  public sealed interface Claim {
    /** This request holds the key and must create (or find) the flow, then complete. */
    record Owned(boolean takenOver) implements Claim {}

    /** The key already answered: replay this flow. */
    record Done(long flowId) implements Claim {}

    /** The key is held by a request that is still running. */
    record InUse() implements Claim {}

    /** The key was used with other parameters. */
    record Reused() implements Claim {}

    /**
     * Nobody holds the key yet ({@link #look} only): the request claims it in the commit that
     * creates its attempt, and learns there if another request claimed it first.
     */
    record Free() implements Claim {}
  }

  /**
   * What presenting a key would answer, read without writing: {@link Claim.Free} when the key has
   * no record yet (nothing is claimed: the caller claims it with its creation); a record is
   * answered as {@link #begin} answers it, an expired lock taken over by {@link #begin}.
   */
  public Claim look(
      String merchant, String key, String requestHash, Instant now, Instant lockUntil) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT request_hash, state, flow_id, locked_until FROM idempotency_key"
                    + " WHERE merchant_id = ? AND idem_key = ?")) {
      ps.setString(1, merchant);
      ps.setString(2, key);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return new Claim.Free();
        }
        if (!rs.getString(1).equals(requestHash)) {
          return new Claim.Reused();
        }
        if ("DONE".equals(rs.getString(2))) {
          return new Claim.Done(rs.getLong(3));
        }
        if (FlowRows.instant(rs, "locked_until").isAfter(now)) {
          return new Claim.InUse();
        }
      }
    } catch (SQLException e) {
      throw new StoreException("idempotency key", e);
    }
    return begin(merchant, key, requestHash, now, lockUntil);
  }

  public Claim begin(
      String merchant, String key, String requestHash, Instant now, Instant lockUntil) {
    for (int i = 0; i < 5; i++) {
      try (Connection c = dataSource.getConnection()) {
        if (insert(c, merchant, key, requestHash, now, lockUntil)) {
          return new Claim.Owned(false);
        }
        try (PreparedStatement ps =
            c.prepareStatement(
                "SELECT request_hash, state, flow_id, locked_until FROM idempotency_key"
                    + " WHERE merchant_id = ? AND idem_key = ?")) {
          ps.setString(1, merchant);
          ps.setString(2, key);
          try (ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
              continue; // released between our insert and read: try again
            }
            if (!rs.getString(1).equals(requestHash)) {
              return new Claim.Reused();
            }
            if ("DONE".equals(rs.getString(2))) {
              return new Claim.Done(rs.getLong(3));
            }
            Instant lockedUntil = FlowRows.instant(rs, "locked_until");
            if (lockedUntil.isAfter(now)) {
              return new Claim.InUse();
            }
            if (takeOver(c, merchant, key, lockedUntil, lockUntil, now)) {
              return new Claim.Owned(true);
            }
          }
        }
      } catch (SQLException e) {
        throw new StoreException("idempotency key", e);
      }
    }
    return new Claim.InUse();
  }

  private boolean insert(
      Connection c, String merchant, String key, String hash, Instant now, Instant lockUntil)
      throws SQLException {
    // Race: two requests with one key insert at once; the primary key lets exactly one in.
    try (PreparedStatement ps =
        c.prepareStatement(
            dialect.insertIfAbsent(
                """
                INSERT INTO idempotency_key (merchant_id, idem_key, request_hash, state,
                                             locked_until, created_at, updated_at)
                VALUES (?, ?, ?, 'IN_FLIGHT', ?, ?, ?)
                """,
                "merchant_id, idem_key"))) {
      ps.setString(1, merchant);
      ps.setString(2, key);
      ps.setString(3, hash);
      ps.setObject(4, ts(lockUntil));
      ps.setObject(5, ts(now));
      ps.setObject(6, ts(now));
      return dialect.executeIfAbsent(ps);
    }
  }

  private static boolean takeOver(
      Connection c, String merchant, String key, Instant expired, Instant lockUntil, Instant now)
      throws SQLException {
    // Race: two retries after the holder died; the CAS on the old lock lets one take over.
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE idempotency_key SET locked_until = ?, updated_at = ?"
                + " WHERE merchant_id = ? AND idem_key = ? AND state = 'IN_FLIGHT'"
                + " AND locked_until = ?")) {
      ps.setObject(1, ts(lockUntil));
      ps.setObject(2, ts(now));
      ps.setString(3, merchant);
      ps.setString(4, key);
      ps.setObject(5, ts(expired));
      return ps.executeUpdate() == 1;
    }
  }

  /** Binds the key to its flow; replays return this flow from now on. */
  public void complete(String merchant, String key, long flowId, Instant now) {
    update(
        "UPDATE idempotency_key SET state = 'DONE', flow_id = ?, updated_at = ?"
            + " WHERE merchant_id = ? AND idem_key = ? AND state = 'IN_FLIGHT'",
        ps -> {
          ps.setLong(1, flowId);
          ps.setObject(2, ts(now));
          ps.setString(3, merchant);
          ps.setString(4, key);
        });
  }

  /** The holder failed before any flow existed: free the key at once. */
  public void release(String merchant, String key) {
    update(
        "DELETE FROM idempotency_key WHERE merchant_id = ? AND idem_key = ? AND state = 'IN_FLIGHT'",
        ps -> {
          ps.setString(1, merchant);
          ps.setString(2, key);
        });
  }

  /**
   * Ends the in-flight lock of a key whose request failed after it may have created its attempt:
   * the row stays, so the retry takes the key over (and looks for that attempt) instead of starting
   * afresh.
   */
  public void expireLock(String merchant, String key, Instant now) {
    update(
        "UPDATE idempotency_key SET locked_until = ?"
            + " WHERE merchant_id = ? AND idem_key = ? AND state = 'IN_FLIGHT'",
        ps -> {
          ps.setObject(1, ts(now));
          ps.setString(2, merchant);
          ps.setString(3, key);
        });
  }

  private void update(String sql, Sql.Binder binder) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      binder.bind(ps);
      ps.executeUpdate();
    } catch (SQLException e) {
      throw new StoreException(sql, e);
    }
  }
}
