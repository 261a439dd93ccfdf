package dev.clearway.service.node;

import static dev.clearway.store.Sql.ts;

import dev.clearway.store.SqlDialect;
import dev.clearway.store.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * A switch that holds for every node of the deployment: one row (id 1) of its table, changed by a
 * named operator with an audit row in the same transaction, read by each node at most once per
 * {@code cacheFor}, so a change made on one node holds on all within that time. Before any change
 * the table has no row and the switch is in its default position.
 */
public final class AuditedSwitch {

  /**
   * Where a switch lives: its one-row table and audit table, which share the columns {@code
   * <flagColumn>, reason, changed_by, changed_at}.
   *
   * @param name what the switch is called in errors
   * @param table the one-row table
   * @param auditTable the audit table, one row per change
   * @param flagColumn the boolean column of both tables
   * @param whenUnset the position before any change
   */
  public record Tables(
      String name, String table, String auditTable, String flagColumn, boolean whenUnset) {
    public Tables {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(table, "table");
      Objects.requireNonNull(auditTable, "auditTable");
      Objects.requireNonNull(flagColumn, "flagColumn");
    }
  }

  /**
   * The switch's position and its last change.
   *
   * @param on the flag column's value
   * @param reason why it was last changed (null before any change)
   * @param changedBy the operator who last changed it (null before any change)
   * @param changedAt when it was last changed (null before any change)
   */
  public record Position(boolean on, String reason, String changedBy, Instant changedAt) {}

  private record Cached(Position position, Instant readAt) {}

  private final DataSource dataSource;
  private final Clock clock;
  private final Duration cacheFor;
  private final Tables tables;
  private final String select;
  private final String upsert;
  private final String audit;
  private volatile Cached cached;

  public AuditedSwitch(
      DataSource dataSource, SqlDialect dialect, Clock clock, Duration cacheFor, Tables tables) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.cacheFor = Objects.requireNonNull(cacheFor, "cacheFor");
    this.tables = Objects.requireNonNull(tables, "tables");
    String flag = tables.flagColumn();
    this.select =
        "SELECT "
            + flag
            + ", reason, changed_by, changed_at FROM "
            + tables.table()
            + " WHERE id = 1";
    this.upsert =
        dialect.upsert(
            "INSERT INTO "
                + tables.table()
                + " (id, "
                + flag
                + ", reason, changed_by, changed_at) VALUES (1, ?, ?, ?, ?)",
            "id",
            flag + ", reason, changed_by, changed_at");
    this.audit =
        "INSERT INTO "
            + tables.auditTable()
            + " ("
            + flag
            + ", reason, changed_by, changed_at) VALUES (?, ?, ?, ?)";
  }

  /** The position, read from the database when the cached one is older than the cache time. */
  public Position current() {
    Cached c = cached;
    Instant now = clock.instant();
    if (c != null && now.isBefore(c.readAt().plus(cacheFor))) {
      return c.position();
    }
    Position position = read();
    cached = new Cached(position, now);
    return position;
  }

  /** The position as the database holds it now. */
  public Position read() {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(select);
        ResultSet rs = ps.executeQuery()) {
      if (!rs.next()) {
        return new Position(tables.whenUnset(), null, null, null);
      }
      Timestamp at = rs.getTimestamp(4);
      return new Position(
          rs.getBoolean(1), rs.getString(2), rs.getString(3), at == null ? null : at.toInstant());
    } catch (SQLException e) {
      throw new StoreException("read " + tables.name(), e);
    }
  }

  /** Sets the switch and writes its audit row in one transaction; this node sees it at once. */
  public Position set(boolean on, String reason, String operator) {
    Instant now = clock.instant();
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try {
        write(c, on, reason, operator, now);
        c.commit();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw new StoreException("set " + tables.name(), e);
    }
    Position position = new Position(on, reason, operator, now);
    cached = new Cached(position, now);
    return position;
  }

  private void write(Connection c, boolean on, String reason, String who, Instant now)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(upsert)) {
      bind(ps, on, reason, who, now);
      // 1: inserted (or left as it was); 2: updated, on the MySQL family.
      int written = ps.executeUpdate();
      if (written != 1 && written != 2) {
        throw new StoreException("set " + tables.name() + ": no row written", null);
      }
    }
    try (PreparedStatement ps = c.prepareStatement(audit)) {
      bind(ps, on, reason, who, now);
      if (ps.executeUpdate() != 1) {
        throw new StoreException("set " + tables.name() + ": no audit row written", null);
      }
    }
  }

  private static void bind(PreparedStatement ps, boolean on, String reason, String who, Instant now)
      throws SQLException {
    ps.setBoolean(1, on);
    ps.setString(2, reason);
    ps.setString(3, who);
    ps.setObject(4, ts(now));
  }
}
