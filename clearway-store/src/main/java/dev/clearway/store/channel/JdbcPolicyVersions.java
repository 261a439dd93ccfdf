package dev.clearway.store.channel;

import dev.clearway.core.channel.policy.PolicyStatus;
import dev.clearway.store.Sql;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import javax.sql.DataSource;

/**
 * The stored policy versions with their status, newest first, for the overview. Reads the
 * registry's table directly (the {@code RecoveryPolicyStore} port has no listing); never reads
 * bodies.
 */
public final class JdbcPolicyVersions {

  /** At most this many versions are listed. */
  public static final int MAX_LISTED = 500;

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

  public List<Summary> newestFirst() {
    return sql.query(
        """
        SELECT version, status, rollout_percent, previous_active, created_by, created_at,
               updated_at
          FROM recovery_policy
         ORDER BY created_at DESC, version
         LIMIT ?
        """,
        ps -> ps.setInt(1, MAX_LISTED),
        JdbcPolicyVersions::summary);
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
