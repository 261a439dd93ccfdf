package dev.clearway.store.channel;

import dev.clearway.core.channel.domain.ProviderEvidence;
import dev.clearway.core.channel.port.EvidenceStore;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.store.Sql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * {@code provider_evidence} on PostgreSQL. Evidence that moves an attempt is inserted by {@link
 * JdbcAttemptStore#record} in its own transaction ({@link #insert}); evidence about a final attempt
 * is appended here.
 */
public final class JdbcEvidenceStore implements EvidenceStore {

  private static final int CODE_MAX = 64;

  private final ChannelTransaction tx;

  public JdbcEvidenceStore(DataSource dataSource) {
    this.tx = new ChannelTransaction(dataSource);
  }

  @Override
  public void appendEvidence(long attemptId, Long taskId, ProviderEvidence evidence) {
    tx.run("append evidence", c -> insert(c, attemptId, taskId, evidence));
  }

  /** Inserts one evidence row in the caller's transaction; returns its id. */
  static long insert(Connection c, long attemptId, Long taskId, ProviderEvidence e)
      throws SQLException {
    PspOutcome o = e.outcome();
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            INSERT INTO provider_evidence (attempt_id, task_id, source, operation, certainty,
              provider_status, provider_object_id, error_code, request_id, raw_sha256,
              policy_version, observed_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            new String[] {"id"})) {
      ps.setLong(1, attemptId);
      ps.setObject(2, taskId);
      ps.setString(3, e.source().name());
      ps.setString(4, e.operation());
      ps.setString(5, o.certainty().name());
      ps.setString(6, Sql.truncate(o.providerStatus(), 48));
      ps.setString(7, Sql.truncate(o.providerPaymentId(), 128));
      ps.setString(8, Sql.truncate(o.errorCode(), CODE_MAX));
      ps.setString(9, Sql.truncate(o.requestId(), 128));
      ps.setString(10, o.rawHash() != null && o.rawHash().length() == 64 ? o.rawHash() : null);
      ps.setString(11, e.policyVersion());
      ps.setObject(12, Sql.ts(e.observedAt()));
      ps.executeUpdate();
      try (ResultSet rs = ps.getGeneratedKeys()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}
