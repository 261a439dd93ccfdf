package dev.clearway.store.channel;

import static dev.clearway.store.Sql.truncate;
import static dev.clearway.store.Sql.ts;

import dev.clearway.core.channel.policy.PolicyAction;
import dev.clearway.core.channel.policy.PolicyEvent;
import dev.clearway.core.channel.policy.PolicyRecord;
import dev.clearway.core.channel.policy.PolicyStatus;
import dev.clearway.core.channel.policy.ProblemText;
import dev.clearway.core.channel.policy.RecoveryPolicyStore;
import dev.clearway.store.Sql;
import dev.clearway.store.SqlErrors;
import dev.clearway.store.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;

/**
 * {@link RecoveryPolicyStore} on PostgreSQL and the MySQL family (tables of V10). Every status
 * change is an UPDATE with {@code row_version = ?}; a change touching several rows (promote,
 * rollback) and its audit event commit in one transaction, and 0 rows for any of them, the
 * one-ACTIVE/one-CANDIDATE index or a lock conflict rolls the whole change back and answers false.
 * The body is written once, by insert.
 */
public final class JdbcRecoveryPolicyStore implements RecoveryPolicyStore {

  /** Unique violation, serialization failure, deadlock: someone else changed the rows first. */
  private static final Set<String> LOST_RACE = Set.of("23505", "40001", "40P01");

  private static final String COLUMNS =
      "version, body, body_sha256, status, rollout_percent, problems, dry_run_report,"
          + " previous_active, created_by, created_at, updated_at, row_version";

  private final DataSource dataSource;
  private final Sql sql;

  public JdbcRecoveryPolicyStore(DataSource dataSource) {
    this.dataSource = dataSource;
    this.sql = new Sql(dataSource);
  }

  @Override
  public boolean insert(PolicyRecord r, PolicyEvent event) {
    return inTransaction(
        "insert recovery_policy",
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "INSERT INTO recovery_policy ("
                      + COLUMNS
                      + ")"
                      + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)")) {
            ps.setString(1, r.version());
            ps.setString(2, r.body());
            ps.setString(3, r.bodySha256());
            ps.setString(4, r.status().name());
            ps.setInt(5, r.rolloutPercent());
            ps.setString(6, ProblemText.encode(r.problems()));
            ps.setString(7, r.dryRunReport());
            ps.setString(8, r.previousActive());
            ps.setString(9, truncate(r.createdBy(), 64));
            ps.setObject(10, ts(r.createdAt()));
            ps.setObject(11, ts(r.updatedAt()));
            if (ps.executeUpdate() != 1) {
              return false;
            }
          }
          appendEvent(c, event);
          return true;
        });
  }

  @Override
  public Optional<PolicyRecord> find(String version) {
    return sql
        .query(
            "SELECT " + COLUMNS + " FROM recovery_policy WHERE version = ?",
            ps -> ps.setString(1, version),
            JdbcRecoveryPolicyStore::record)
        .stream()
        .findFirst();
  }

  @Override
  public Optional<PolicyRecord> findSingle(PolicyStatus status) {
    switch (status) {
      case ACTIVE, CANDIDATE -> {}
      case DRAFT, VALIDATED, REJECTED, RETIRED, ROLLED_BACK ->
          throw new IllegalArgumentException(status + " is not a single-row status");
    }
    return sql
        .query(
            "SELECT " + COLUMNS + " FROM recovery_policy WHERE status = ?",
            ps -> ps.setString(1, status.name()),
            JdbcRecoveryPolicyStore::record)
        .stream()
        .findFirst();
  }

  @Override
  public boolean apply(List<PolicyRecord> updates, PolicyEvent event) {
    return inTransaction(
        "update recovery_policy",
        c -> {
          for (PolicyRecord r : updates) {
            try (PreparedStatement ps =
                c.prepareStatement(
                    """
                    UPDATE recovery_policy
                       SET status = ?, rollout_percent = ?, problems = ?, dry_run_report = ?,
                           previous_active = ?, updated_at = ?, row_version = row_version + 1
                     WHERE version = ? AND row_version = ?
                    """)) {
              ps.setString(1, r.status().name());
              ps.setInt(2, r.rolloutPercent());
              ps.setString(3, ProblemText.encode(r.problems()));
              ps.setString(4, r.dryRunReport());
              ps.setString(5, r.previousActive());
              ps.setObject(6, ts(r.updatedAt()));
              ps.setString(7, r.version());
              ps.setLong(8, r.rowVersion());
              if (ps.executeUpdate() != 1) {
                // 0 rows: the row moved since it was read. Nothing of this change may stay.
                return false;
              }
            }
          }
          appendEvent(c, event);
          return true;
        });
  }

  @Override
  public List<PolicyEvent> events(String version) {
    return sql.query(
        "SELECT version, action, actor, reason, at, detail FROM recovery_policy_event"
            + " WHERE version = ? ORDER BY id",
        ps -> ps.setString(1, version),
        rs ->
            new PolicyEvent(
                rs.getString("version"),
                PolicyAction.valueOf(rs.getString("action")),
                rs.getString("actor"),
                rs.getString("reason"),
                instant(rs, "at"),
                rs.getString("detail")));
  }

  private static void appendEvent(Connection c, PolicyEvent e) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO recovery_policy_event (version, action, actor, reason, at, detail)"
                + " VALUES (?, ?, ?, ?, ?, ?)")) {
      ps.setString(1, e.version());
      ps.setString(2, e.action().name());
      ps.setString(3, truncate(e.actor(), 64));
      ps.setString(4, truncate(e.reason(), 500));
      ps.setObject(5, ts(e.at()));
      ps.setString(6, truncate(e.detail(), 1000));
      if (ps.executeUpdate() != 1) {
        throw new SQLException("audit event not inserted");
      }
    }
  }

  private static PolicyRecord record(ResultSet rs) throws SQLException {
    return new PolicyRecord(
        rs.getString("version"),
        rs.getString("body"),
        rs.getString("body_sha256"),
        PolicyStatus.valueOf(rs.getString("status")),
        rs.getInt("rollout_percent"),
        ProblemText.decode(rs.getString("problems")),
        rs.getString("dry_run_report"),
        rs.getString("previous_active"),
        rs.getString("created_by"),
        instant(rs, "created_at"),
        instant(rs, "updated_at"),
        rs.getLong("row_version"));
  }

  private static Instant instant(ResultSet rs, String column) throws SQLException {
    OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }

  @FunctionalInterface
  private interface Change {
    /** Returns false to roll back: a compare-and-set found its row moved. */
    boolean run(Connection c) throws SQLException;
  }

  /** Commits when {@code change} answers true; rolls back and answers false on a lost race. */
  private boolean inTransaction(String operation, Change change) {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try {
        if (change.run(c)) {
          c.commit();
          return true;
        }
        c.rollback();
        return false;
      } catch (SQLException e) {
        c.rollback();
        if (LOST_RACE.contains(e.getSQLState()) || SqlErrors.isUniqueViolation(e)) {
          return false;
        }
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw new StoreException(operation, e);
    }
  }
}
