package dev.clearway.store.channel;

import dev.clearway.core.channel.policy.PolicyAction;
import dev.clearway.core.channel.policy.PolicyStatus;
import dev.clearway.store.Sql;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import javax.sql.DataSource;

/**
 * The stored policy versions with their status, and a version's audit trail, page by page for the
 * ops endpoints. Reads the registry's tables directly (the {@code RecoveryPolicyStore} port lists
 * nothing); never reads bodies.
 */
public final class JdbcPolicyVersions {

  private final Sql sql;

  public JdbcPolicyVersions(DataSource dataSource) {
    this.sql = new Sql(dataSource);
  }

  /** One version in the list. */
  public record Summary(
      String version,
      PolicyStatus status,
      int rolloutPercent,
      String previousActive,
      String createdBy,
      Instant createdAt,
      Instant updatedAt) {}

  /** Where a page of versions starts: after (older than) this one. */
  public record VersionKey(Instant createdAt, String version) {}

  /** One audited act on a version (who, what, when, why); {@code id} orders the trail. */
  public record AuditEvent(
      long id,
      String version,
      PolicyAction action,
      String actor,
      String reason,
      Instant at,
      String detail) {}

  /**
   * Versions, newest created first (then by version, descending): at most {@code limit} after
   * {@code after} (null for the first page), through {@code idx_policy_created}.
   */
  public List<Summary> newestFirst(VersionKey after, int limit) {
    if (after == null) {
      return sql.query(
          """
          SELECT version, status, rollout_percent, previous_active, created_by, created_at,
                 updated_at
            FROM recovery_policy
           ORDER BY created_at DESC, version DESC
           LIMIT ?
          """,
          ps -> ps.setInt(1, limit),
          JdbcPolicyVersions::summary);
    }
    return sql.query(
        """
        SELECT version, status, rollout_percent, previous_active, created_by, created_at,
               updated_at
          FROM recovery_policy
         WHERE (created_at, version) < (?, ?)
         ORDER BY created_at DESC, version DESC
         LIMIT ?
        """,
        ps -> {
          ps.setObject(1, Sql.ts(after.createdAt()));
          ps.setString(2, after.version());
          ps.setInt(3, limit);
        },
        JdbcPolicyVersions::summary);
  }

  /**
   * A version's audit trail, newest first: at most {@code limit} events with an id below {@code
   * beforeId} ({@link Long#MAX_VALUE} for the first page), through {@code idx_policy_event_version
   * (version, id)}.
   */
  public List<AuditEvent> audit(String version, long beforeId, int limit) {
    return sql.query(
        """
        SELECT id, version, action, actor, reason, at, detail
          FROM recovery_policy_event
         WHERE version = ? AND id < ?
         ORDER BY id DESC
         LIMIT ?
        """,
        ps -> {
          ps.setString(1, version);
          ps.setLong(2, beforeId);
          ps.setInt(3, limit);
        },
        rs ->
            new AuditEvent(
                rs.getLong("id"),
                rs.getString("version"),
                PolicyAction.valueOf(rs.getString("action")),
                rs.getString("actor"),
                rs.getString("reason"),
                instant(rs, "at"),
                rs.getString("detail")));
  }

  private static Summary summary(ResultSet rs) throws SQLException {
    return new Summary(
        rs.getString("version"),
        PolicyStatus.valueOf(rs.getString("status")),
        rs.getInt("rollout_percent"),
        rs.getString("previous_active"),
        rs.getString("created_by"),
        instant(rs, "created_at"),
        instant(rs, "updated_at"));
  }

  private static Instant instant(ResultSet rs, String column) throws SQLException {
    OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }
}
