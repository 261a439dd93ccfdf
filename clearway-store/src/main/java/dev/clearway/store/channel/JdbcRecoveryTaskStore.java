package dev.clearway.store.channel;

import dev.clearway.core.channel.domain.RecoveryTask;
import dev.clearway.core.channel.port.AttemptStore.NewTask;
import dev.clearway.core.channel.port.AttemptStore.TaskChange;
import dev.clearway.core.channel.port.RecoveryTaskStore;
import dev.clearway.store.PostgresDialect;
import dev.clearway.store.Sql;
import dev.clearway.store.SqlDialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The statements of {@code recovery_task}. A task's lease is its attempt's: every write by a worker
 * names the token it holds ({@code lease_owner = ?} with status LEASED), so a worker whose lease
 * expired and was claimed by another changes nothing; claims and holds bump the version, which
 * fences {@link #rescheduleTask} the same way. Every time written is the engine clock's, passed in
 * as {@code now}.
 */
public final class JdbcRecoveryTaskStore implements RecoveryTaskStore {

  private static final int CODE_MAX = 64;

  private final Sql sql;
  private final SqlDialect dialect;

  /** On PostgreSQL. */
  public JdbcRecoveryTaskStore(DataSource dataSource) {
    this(dataSource, new PostgresDialect());
  }

  public JdbcRecoveryTaskStore(DataSource dataSource, SqlDialect dialect) {
    this.sql = new Sql(dataSource);
    this.dialect = dialect;
  }

  /** The task of a new attempt, LEASED to the creating call until {@code task.dueAt()}. */
  static void insert(Connection c, long attemptId, long accountId, NewTask task, Instant now)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            INSERT INTO recovery_task (attempt_id, channel_account_id, status, strategy, due_at,
              lease_owner, lease_until, policy_version, created_at, updated_at)
            VALUES (?, ?, 'LEASED', ?, ?, ?, ?, ?, ?, ?)
            """)) {
      ps.setLong(1, attemptId);
      ps.setLong(2, accountId);
      ps.setString(3, task.strategy());
      ps.setObject(4, Sql.ts(task.dueAt()));
      ps.setString(5, task.holder());
      ps.setObject(6, Sql.ts(task.dueAt()));
      ps.setString(7, task.policyVersion());
      ps.setObject(8, Sql.ts(now));
      ps.setObject(9, Sql.ts(now));
      ps.executeUpdate();
    }
  }

  /** Whether {@code token} still holds the task of the attempt (a read, no lock). */
  static boolean held(Connection c, long attemptId, String token) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT 1 FROM recovery_task"
                + " WHERE attempt_id = ? AND status = 'LEASED' AND lease_owner = ?")) {
      ps.setLong(1, attemptId);
      ps.setString(2, token);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  /**
   * Applies the task change of a recorded observation, in the recording transaction. A holder's
   * ({@code taskLease} set) applies only to the task LEASED to it and returns false otherwise: the
   * caller rolls the whole record back. An observer's (a webhook's, a close's) applies to the open
   * task whoever holds it, since its evidence is now the newest (a holder's record of an older
   * version then fails its CAS); 0 rows is fine: the task may already be settled.
   */
  static boolean apply(
      Connection c,
      long attemptId,
      TaskChange change,
      long evidenceId,
      String taskLease,
      Instant now)
      throws SQLException {
    String fence =
        taskLease == null
            ? " WHERE attempt_id = ? AND status IN ('READY', 'LEASED')"
            : " WHERE attempt_id = ? AND status = 'LEASED' AND lease_owner = ?";
    String sql;
    if (change instanceof TaskChange.Reschedule) {
      sql =
          "UPDATE recovery_task SET status = 'READY', due_at = ?, strategy = ?, last_error = ?,"
              + " evidence_id = ?, lease_owner = NULL, lease_until = NULL,"
              + " version = version + 1, updated_at = ?";
    } else if (change instanceof TaskChange.Manual) {
      sql =
          "UPDATE recovery_task SET status = 'MANUAL', last_error = ?, evidence_id = ?,"
              + " lease_owner = NULL, lease_until = NULL, version = version + 1, updated_at = ?";
    } else {
      sql =
          "UPDATE recovery_task SET status = 'RESOLVED', evidence_id = ?, lease_owner = NULL,"
              + " lease_until = NULL, version = version + 1, updated_at = ?";
    }
    try (PreparedStatement ps = c.prepareStatement(sql + fence)) {
      int i = 1;
      if (change instanceof TaskChange.Reschedule r) {
        ps.setObject(i++, Sql.ts(r.dueAt()));
        ps.setString(i++, r.strategy());
        ps.setString(i++, Sql.truncate(r.lastError(), CODE_MAX));
      } else if (change instanceof TaskChange.Manual m) {
        ps.setString(i++, Sql.truncate(m.reason(), CODE_MAX));
      }
      ps.setLong(i++, evidenceId);
      ps.setObject(i++, Sql.ts(now));
      ps.setLong(i++, attemptId);
      if (taskLease != null) {
        ps.setString(i, taskLease);
      }
      int rows = ps.executeUpdate();
      return taskLease == null || rows == 1;
    }
  }

  /** The columns of a task ({@link ChannelRows#task}). */
  private static final String TASK_COLUMNS =
      "id, attempt_id, channel_account_id, status, strategy, due_at, attempt_count, lease_owner,"
          + " lease_until, policy_version, version";

  @Override
  public List<RecoveryTask> claimDue(String owner, int limit, Duration lease, Instant now) {
    SqlDialect.ClaimPage page =
        new SqlDialect.ClaimPage(
            "recovery_task",
            "idx_recovery_task_ops",
            """
            SELECT id FROM recovery_task
            WHERE status IN ('READY', 'LEASED')
              AND ((status = 'READY' AND due_at <= ?) OR (status = 'LEASED' AND lease_until < ?))
            ORDER BY due_at, id
            LIMIT ?
            FOR UPDATE SKIP LOCKED
            """,
            (ps, i) -> {
              ps.setObject(i++, Sql.ts(now));
              ps.setObject(i++, Sql.ts(now));
              ps.setInt(i++, limit);
              return i;
            },
            "status = 'LEASED', lease_owner = ?, lease_until = ?,"
                + " attempt_count = attempt_count + 1, version = version + 1, updated_at = ?",
            (ps, i) -> {
              ps.setString(i++, owner);
              ps.setObject(i++, Sql.ts(now.plus(lease)));
              ps.setObject(i++, Sql.ts(now));
              return i;
            },
            TASK_COLUMNS);
    return sql.transaction(
        "claim recovery tasks", c -> dialect.claimPage(c, page, ChannelRows::task));
  }

  @Override
  public Optional<RecoveryTask> claimTask(
      long attemptId, String owner, Duration lease, Instant now) {
    // Race: the recovery worker's claimDue skips the row while this holds its lock, and this
    // re-checks the condition on the row a concurrent claim left: exactly one of them takes it.
    return sql.transaction(
        "claim recovery task",
        c ->
            dialect.updateReturning(
                c,
                """
                UPDATE recovery_task SET status = 'LEASED', lease_owner = ?, lease_until = ?,
                  attempt_count = attempt_count + 1, version = version + 1, updated_at = ?
                WHERE attempt_id = ?
                  AND ((status = 'READY' AND due_at <= ?) OR (status = 'LEASED' AND lease_until < ?))
                """,
                ps -> {
                  ps.setString(1, owner);
                  ps.setObject(2, Sql.ts(now.plus(lease)));
                  ps.setObject(3, Sql.ts(now));
                  ps.setLong(4, attemptId);
                  ps.setObject(5, Sql.ts(now));
                  ps.setObject(6, Sql.ts(now));
                },
                new SqlDialect.RowRef("recovery_task", "attempt_id", attemptId),
                TASK_COLUMNS,
                ChannelRows::task));
  }

  @Override
  public boolean holdTask(long attemptId, String holder, Instant until, Instant now) {
    // Race: a recovery worker's claim and this hold both want the task; the row lock and the
    // condition (READY, or LEASED with an expired lease) let exactly one of them take it.
    return sql.update(
            """
            UPDATE recovery_task SET status = 'LEASED', lease_owner = ?, lease_until = ?,
              version = version + 1, updated_at = ?
            WHERE attempt_id = ?
              AND (status = 'READY' OR (status = 'LEASED' AND lease_until < ?))
            """,
            ps -> {
              ps.setString(1, holder);
              ps.setObject(2, Sql.ts(until));
              ps.setObject(3, Sql.ts(now));
              ps.setLong(4, attemptId);
              ps.setObject(5, Sql.ts(now));
            })
        == 1;
  }

  @Override
  public void resolveTask(long attemptId, Instant now) {
    sql.update(
        """
        UPDATE recovery_task SET status = 'RESOLVED', lease_owner = NULL, lease_until = NULL,
          version = version + 1, updated_at = ?
        WHERE attempt_id = ? AND status IN ('READY', 'LEASED')
        """,
        ps -> {
          ps.setObject(1, Sql.ts(now));
          ps.setLong(2, attemptId);
        });
  }

  @Override
  public void wakeTask(long attemptId, Instant now) {
    sql.update(
        """
        UPDATE recovery_task SET due_at = ?, version = version + 1, updated_at = ?
        WHERE attempt_id = ? AND status = 'READY' AND due_at > ?
        """,
        ps -> {
          ps.setObject(1, Sql.ts(now));
          ps.setObject(2, Sql.ts(now));
          ps.setLong(3, attemptId);
          ps.setObject(4, Sql.ts(now));
        });
  }

  @Override
  public boolean rescheduleTask(
      RecoveryTask claimed, Instant dueAt, String strategy, String lastError, Instant now) {
    // Fenced by the version the claim returned: a later claim (a takeover) bumped it.
    return sql.update(
            """
            UPDATE recovery_task SET status = 'READY', due_at = ?, strategy = ?, last_error = ?,
              lease_owner = NULL, lease_until = NULL, version = version + 1, updated_at = ?
            WHERE id = ? AND version = ? AND status = 'LEASED'
            """,
            ps -> {
              ps.setObject(1, Sql.ts(dueAt));
              ps.setString(2, strategy);
              ps.setString(3, Sql.truncate(lastError, CODE_MAX));
              ps.setObject(4, Sql.ts(now));
              ps.setLong(5, claimed.id());
              ps.setLong(6, claimed.version());
            })
        == 1;
  }

  @Override
  public Optional<Instant> oldestOpenTask() {
    return sql
        .query(
            "SELECT min(created_at) AS oldest FROM recovery_task"
                + " WHERE status IN ('READY', 'LEASED')",
            ps -> {},
            rs -> ChannelRows.instant(rs, "oldest"))
        .stream()
        .filter(Objects::nonNull)
        .findFirst();
  }

  @Override
  public long openTasks() {
    return sql.query(
            "SELECT count(*) FROM recovery_task WHERE status IN ('READY', 'LEASED')",
            ps -> {},
            rs -> rs.getLong(1))
        .get(0);
  }
}
