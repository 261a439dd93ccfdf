package dev.clearway.store;

import dev.clearway.core.flow.port.FlowStore.Lease;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * The MySQL family: MariaDB 10.11 and MySQL 8, with only what both support. Neither has {@code
 * RETURNING} on UPDATE (MariaDB has it on INSERT and DELETE only, MySQL nowhere) nor data-modifying
 * CTEs: an update that returns its row is the UPDATE then a SELECT of the row by its key in the
 * same transaction (the UPDATE holds the row lock, so the SELECT reads what it wrote); a page claim
 * is a {@code SELECT id ... FOR UPDATE SKIP LOCKED} then an UPDATE of those ids. Insert-if-absent
 * is a plain INSERT whose duplicate-key error (1062) means "present": InnoDB rolls back that
 * statement alone and the transaction goes on, and unlike {@code INSERT IGNORE} no other error (a
 * CHECK, a foreign key, a value too long) is turned into a warning.
 *
 * <p>Times are DATETIME(6) in UTC: the pool pins the session time zone to UTC and the driver keeps
 * instants as they are.
 */
public final class MysqlDialect implements SqlDialect {

  /** ER_DUP_ENTRY, on MariaDB and MySQL alike. */
  static final int DUPLICATE_KEY = 1062;

  private static final tools.jackson.databind.json.JsonMapper JSON =
      tools.jackson.databind.json.JsonMapper.builder().build();

  /** See {@link SqlDialect#sharded}. */
  private final boolean sharded;

  public MysqlDialect() {
    this(false);
  }

  public MysqlDialect(boolean sharded) {
    this.sharded = sharded;
  }

  @Override
  public String name() {
    return "MySQL/MariaDB";
  }

  @Override
  public boolean writesReturnRows() {
    return false;
  }

  @Override
  public void setTextList(Connection c, PreparedStatement ps, int index, List<String> values)
      throws SQLException {
    // No array type: a JSON array, written by Jackson.
    ps.setString(index, values == null ? null : JSON.writeValueAsString(values));
  }

  @Override
  public String flowEventPayload() {
    return MysqlFlowWrites.EVENT_PAYLOAD;
  }

  @Override
  public String migrationLocation() {
    return "classpath:db/migration/mysql";
  }

  @Override
  public Map<String, String> poolProperties(Database.Timeouts timeouts) {
    // MariaDB Connector/J: the socket timeout in milliseconds. Neither server bounds every
    // statement the same way (MariaDB max_statement_time, MySQL max_execution_time for SELECT
    // only), so the statement bound is the one both have: how long a statement waits for a row
    // lock (innodb_lock_wait_timeout, whole seconds).
    long lockWaitSeconds = Math.max(1, (timeouts.statement().toMillis() + 999) / 1000);
    return Map.of(
        "socketTimeout",
        Long.toString(timeouts.socket().toMillis()),
        "connectionTimeZone",
        "UTC",
        "forceConnectionTimeZoneToSession",
        "true",
        "preserveInstants",
        "true",
        "sessionVariables",
        "innodb_lock_wait_timeout=" + lockWaitSeconds);
  }

  @Override
  public boolean executeIfAbsent(PreparedStatement insert) throws SQLException {
    try {
      return insert.executeUpdate() == 1;
    } catch (SQLException e) {
      if (e.getErrorCode() == DUPLICATE_KEY) {
        return false;
      }
      throw e;
    }
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
    return inTransaction(
        c,
        () -> {
          try (PreparedStatement ps = c.prepareStatement(update)) {
            binder.bind(ps);
            if (ps.executeUpdate() == 0) {
              return Optional.empty();
            }
          }
          String read =
              "SELECT %s FROM %s WHERE %s = ?".formatted(columns, row.table(), row.keyColumn());
          try (PreparedStatement ps = c.prepareStatement(read)) {
            ps.setObject(1, row.key());
            try (ResultSet rs = ps.executeQuery()) {
              return rs.next() ? Optional.of(mapper.map(rs)) : Optional.empty();
            }
          }
        });
  }

  @Override
  public <T> List<T> claimPage(Connection c, ClaimPage page, Sql.RowMapper<T> mapper)
      throws SQLException {
    return inTransaction(
        c,
        () -> {
          List<Long> ids = claimIds(c, page);
          if (ids.isEmpty()) {
            return List.of();
          }
          String read =
              "SELECT %s FROM %s WHERE id IN (%s)"
                  .formatted(page.columns(), page.table(), placeholders(ids));
          try (PreparedStatement ps = c.prepareStatement(read)) {
            bindIds(ps, 1, ids);
            List<T> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                rows.add(mapper.map(rs));
              }
            }
            return rows;
          }
        });
  }

  /** Locks the page and writes its SET; the ids claimed. The caller holds the transaction. */
  static List<Long> claimIds(Connection c, ClaimPage page) throws SQLException {
    // SKIP LOCKED: two claimers never take the same row; the SELECT locks the page, the UPDATE
    // writes it, the transaction commits both.
    List<Long> ids = new ArrayList<>();
    String from = "FROM " + page.table();
    String select =
        page.select().replaceFirst(from + "\\b", from + " FORCE INDEX (" + page.orderIndex() + ")");
    try (PreparedStatement ps = c.prepareStatement(select)) {
      page.selectParams().bind(ps, 1);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          ids.add(rs.getLong(1));
        }
      }
    }
    if (ids.isEmpty()) {
      return ids;
    }
    String update =
        "UPDATE %s SET %s WHERE id IN (%s)".formatted(page.table(), page.set(), placeholders(ids));
    try (PreparedStatement ps = c.prepareStatement(update)) {
      bindIds(ps, page.setParams().bind(ps, 1), ids);
      ps.executeUpdate();
    }
    return ids;
  }

  static String placeholders(List<Long> ids) {
    return String.join(", ", Collections.nCopies(ids.size(), "?"));
  }

  private static void bindIds(PreparedStatement ps, int first, List<Long> ids) throws SQLException {
    int i = first;
    for (long id : ids) {
      ps.setLong(i++, id);
    }
  }

  @Override
  public List<Long> claimDue(
      Sql sql, LeasedTable.Shape t, long afterId, int limit, Lease lease, Instant now) {
    return sql.transaction(
        "claim " + t.table(), c -> MysqlDueClaim.claim(c, t, afterId, limit, lease, now));
  }

  @Override
  public <T> List<T> claimDueRows(
      Sql sql,
      LeasedTable.Shape t,
      long afterId,
      int limit,
      Lease lease,
      Instant now,
      String columns,
      Sql.RowMapper<T> mapper) {
    // The page claim, then the claimed rows as written (joined with their facts), in one
    // transaction: the claim's row locks keep them ours until it commits.
    String from =
        t.factsTable() == null ? t.table() : t.table() + " JOIN " + t.factsTable() + " USING (id)";
    return sql.transaction(
        "claim " + t.table(),
        c -> {
          List<Long> ids = MysqlDueClaim.claim(c, t, afterId, limit, lease, now);
          if (ids.isEmpty()) {
            return List.of();
          }
          String read =
              "SELECT %s FROM %s WHERE %s.id IN (%s)"
                  .formatted(columns, from, t.table(), placeholders(ids));
          try (PreparedStatement ps = c.prepareStatement(read)) {
            bindIds(ps, 1, ids);
            List<T> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                rows.add(mapper.map(rs));
              }
            }
            return rows;
          }
        });
  }

  @Override
  public Optional<FlowWrites> flowWrites(DataSource dataSource) {
    return Optional.of(
        sharded ? new ShardedFlowWrites(dataSource) : new MysqlFlowWrites(dataSource));
  }

  @Override
  public boolean sharded() {
    return sharded;
  }

  @Override
  public String insertIfAbsent(String insert, String conflictColumns) {
    // A single-row INSERT; executeIfAbsent reads its duplicate-key error as "present".
    return insert;
  }

  @Override
  public String upsert(String insert, String conflictColumns, String updateColumns) {
    // VALUES(col) names the value the insert carried: MariaDB's only form; MySQL 8.0.20+ still
    // runs it (deprecated there in favour of a row alias MariaDB lacks).
    String sets =
        Arrays.stream(updateColumns.split(","))
            .map(String::strip)
            .map(col -> col + " = VALUES(" + col + ")")
            .collect(Collectors.joining(", "));
    return insert.stripTrailing() + "\nON DUPLICATE KEY UPDATE " + sets + "\n";
  }

  @Override
  public long nextId(Connection c, String sequence) throws SQLException {
    // MySQL 8 has no sequences: a one-column AUTO_INCREMENT table stands in. The row is removed at
    // once; InnoDB never hands the value out again (the counter survives rollbacks and restarts).
    long id;
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO " + sequence + " () VALUES ()", Statement.RETURN_GENERATED_KEYS)) {
      ps.executeUpdate();
      try (ResultSet keys = ps.getGeneratedKeys()) {
        keys.next();
        id = keys.getLong(1);
      }
    }
    try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + sequence + " WHERE id = ?")) {
      ps.setLong(1, id);
      ps.executeUpdate();
    }
    return id;
  }

  @Override
  public String insertIfAbsentAnyKey(String insert) {
    return insert;
  }

  @Override
  public String transitionSql() {
    // The transition is several statements here: flowWrites.
    throw notYet("the flow transition in one statement (see flowWrites)");
  }

  @Override
  public String refundTransitionSql() {
    throw notYet("the refund transition (UPDATE, history and outbox in one transaction)");
  }

  @Override
  public String claimDueRowsSql(LeasedTable.Shape table, String columns) {
    // No UPDATE ... RETURNING here: claimDueRows claims and reads in two statements.
    throw notYet("a claim that returns the claimed rows in one statement (see claimDueRows)");
  }

  @Override
  public String claimDifferencesSql() {
    throw notYet("the reconciliation difference claim");
  }

  @Override
  public String agreeingLinesSql() {
    throw notYet("the reconciliation matcher");
  }

  private static UnsupportedOperationException notYet(String what) {
    return new UnsupportedOperationException(what + " is not written for MySQL/MariaDB yet");
  }

  /** Work run on one connection. */
  @FunctionalInterface
  private interface Body<T> {
    T run() throws SQLException;
  }

  /** Runs {@code body} in a transaction of its own unless {@code c} is in one already. */
  private static <T> T inTransaction(Connection c, Body<T> body) throws SQLException {
    if (!c.getAutoCommit()) {
      return body.run();
    }
    c.setAutoCommit(false);
    try {
      T result = body.run();
      c.commit();
      return result;
    } catch (SQLException | RuntimeException e) {
      try {
        c.rollback();
      } catch (SQLException r) {
        e.addSuppressed(r);
      }
      throw e;
    } finally {
      c.setAutoCommit(true);
    }
  }
}
