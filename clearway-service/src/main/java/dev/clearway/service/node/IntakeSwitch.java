package dev.clearway.service.node;

import static dev.clearway.store.Sql.ts;

import dev.clearway.store.SqlDialect;
import dev.clearway.store.SqlDialects;
import dev.clearway.store.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import javax.sql.DataSource;

/**
 * Whether new payments are accepted, for every node of the deployment: one row in {@code
 * intake_switch}, changed by operators with an audit row in the same transaction. Each node reads
 * it at most once per {@code cacheFor}, so a change made on one node holds on all within that time.
 */
public final class IntakeSwitch {
  private final DataSource dataSource;
  private final SqlDialect dialect;
  private final Clock clock;
  private final Duration cacheFor;
  private volatile Cached cached;

  /**
   * The switch's state.
   *
   * @param open whether new payments are accepted
   * @param reason why it was last changed (null before any change)
   * @param changedBy the operator who last changed it (null before any change)
   * @param changedAt when it was last changed (null before any change)
   */
  public record State(boolean open, String reason, String changedBy, Instant changedAt) {}

  private record Cached(State state, Instant readAt) {}

  /** On the database of the pool's URL. */
  public IntakeSwitch(DataSource dataSource, Clock clock, Duration cacheFor) {
    this(dataSource, SqlDialects.forDataSource(dataSource), clock, cacheFor);
  }

  public IntakeSwitch(DataSource dataSource, SqlDialect dialect, Clock clock, Duration cacheFor) {
    this.dataSource = dataSource;
    this.dialect = dialect;
    this.clock = clock;
    this.cacheFor = cacheFor;
  }

  /** The state, read from the database when the cached one is older than the cache time. */
  public State current() {
    Cached c = cached;
    Instant now = clock.instant();
    if (c != null && now.isBefore(c.readAt().plus(cacheFor))) {
      return c.state();
    }
    State state = read();
    cached = new Cached(state, now);
    return state;
  }

  /** The state as the database holds it now. */
  public State read() {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT open, reason, changed_by, changed_at FROM intake_switch WHERE id = 1");
        ResultSet rs = ps.executeQuery()) {
      if (!rs.next()) {
        return new State(true, null, null, null);
      }
      Timestamp at = rs.getTimestamp(4);
      return new State(
          rs.getBoolean(1), rs.getString(2), rs.getString(3), at == null ? null : at.toInstant());
    } catch (SQLException e) {
      throw new StoreException("read intake switch", e);
    }
  }

  /** Sets the switch and writes its audit row in one transaction; this node sees it at once. */
  public State set(boolean open, String reason, String operator) {
    Instant now = clock.instant();
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try {
        write(c, dialect, open, reason, operator, now);
        c.commit();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw new StoreException("set intake switch", e);
    }
    State state = new State(open, reason, operator, now);
    cached = new Cached(state, now);
    return state;
  }

  private static void write(
      Connection c, SqlDialect dialect, boolean open, String reason, String who, Instant now)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            dialect.upsert(
                "INSERT INTO intake_switch (id, open, reason, changed_by, changed_at)"
                    + " VALUES (1, ?, ?, ?, ?)",
                "id",
                "open, reason, changed_by, changed_at"))) {
      bind(ps, open, reason, who, now);
      // 1: inserted (or left as it was); 2: updated, on the MySQL family.
      int written = ps.executeUpdate();
      if (written != 1 && written != 2) {
        throw new StoreException("set intake switch: no row written", null);
      }
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO intake_audit (open, reason, changed_by, changed_at)"
                + " VALUES (?, ?, ?, ?)")) {
      bind(ps, open, reason, who, now);
      ps.executeUpdate();
    }
  }

  private static void bind(
      PreparedStatement ps, boolean open, String reason, String who, Instant now)
      throws SQLException {
    ps.setBoolean(1, open);
    ps.setString(2, reason);
    ps.setString(3, who);
    ps.setObject(4, ts(now));
  }
}
