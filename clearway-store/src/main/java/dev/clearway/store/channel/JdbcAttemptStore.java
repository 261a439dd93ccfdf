package dev.clearway.store.channel;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.port.AttemptStore;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.ResultCertainty;
import dev.clearway.store.PostgresDialect;
import dev.clearway.store.ShardBits;
import dev.clearway.store.Sql;
import dev.clearway.store.SqlDialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * {@code payment_attempt} on PostgreSQL, and the two transactions that span tables, both here: the
 * insert of an attempt with its recovery task, and the record of an observation (the attempt's
 * compare-and-set, its evidence, history, outbox event and task change, fenced by the writer's task
 * lease when it holds one). They use the statements of {@link JdbcEvidenceStore}, {@link
 * AttemptEventRows} and {@link JdbcRecoveryTaskStore} inside their own transaction.
 */
public final class JdbcAttemptStore implements AttemptStore {

  private static final int CODE_MAX = 64;

  private final Sql sql;
  private final SqlDialect dialect;
  private final ChannelTransaction tx;

  /** On PostgreSQL. */
  public JdbcAttemptStore(DataSource dataSource) {
    this(dataSource, new PostgresDialect());
  }

  public JdbcAttemptStore(DataSource dataSource, SqlDialect dialect) {
    this.sql = new Sql(dataSource);
    this.tx = new ChannelTransaction(dataSource);
    this.dialect = dialect;
  }

  @Override
  public List<Attempt> attempts(String tradeOrderNo) {
    if (dialect.namesNoRow(tradeOrderNo)) {
      return List.of();
    }
    return sql.query(
        "SELECT "
            + ChannelRows.ATTEMPT_COLUMNS
            + " FROM payment_attempt"
            + " WHERE trade_order_no = ? ORDER BY seq",
        ps -> ps.setString(1, tradeOrderNo),
        ChannelRows::attempt);
  }

  @Override
  public Optional<Attempt> attempt(long attemptId) {
    return sql
        .query(
            "SELECT " + ChannelRows.ATTEMPT_COLUMNS + " FROM payment_attempt WHERE id = ?",
            ps -> ps.setLong(1, attemptId),
            ChannelRows::attempt)
        .stream()
        .findFirst();
  }

  @Override
  public Optional<Attempt> attemptByKey(String key) {
    return sql
        .query(
            "SELECT "
                + ChannelRows.ATTEMPT_COLUMNS
                + " FROM payment_attempt"
                + " WHERE provider_idempotency_key = ?",
            ps -> ps.setString(1, key),
            ChannelRows::attempt)
        .stream()
        .findFirst();
  }

  @Override
  public Optional<Attempt> insertAttempt(NewAttempt a, NewTask task, Instant now) {
    return tx.run(
        ChannelTransaction.INSERT_ATTEMPT,
        c -> {
          // The order's row lock serialises attempt creation for one order.
          if (!"OPEN".equals(lockOrder(c, a.tradeOrderNo()))) {
            return Optional.empty();
          }
          int seq = nextSeqIfNoneLive(c, a.tradeOrderNo());
          if (seq == 0) {
            return Optional.empty();
          }
          // The id routes like its order: it carries the shard bits of the order's flow.
          long id = ShardBits.inherit(a.tradeOrderNo(), dialect.nextId(c, "payment_attempt_seq"));
          insertRow(c, id, seq, a, now);
          JdbcRecoveryTaskStore.insert(c, id, a.channelAccountId(), task, now);
          return attempt(c, id);
        });
  }

  /** The order's status, its row locked; null when there is no such order. */
  private static String lockOrder(Connection c, String tradeOrderNo) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT status FROM payment_order WHERE trade_order_no = ? FOR UPDATE")) {
      ps.setString(1, tradeOrderNo);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  /** The next attempt's seq, or 0 while an attempt of the order is live. */
  private static int nextSeqIfNoneLive(Connection c, String tradeOrderNo) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            SELECT coalesce(sum(CASE WHEN status IN ('CREATED', 'PENDING', 'UNKNOWN')
                                     THEN 1 ELSE 0 END), 0),
                   coalesce(max(seq), 0) + 1
            FROM payment_attempt WHERE trade_order_no = ?
            """)) {
      ps.setString(1, tradeOrderNo);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1) > 0 ? 0 : rs.getInt(2);
      }
    }
  }

  private static void insertRow(Connection c, long id, int seq, NewAttempt a, Instant now)
      throws SQLException {
    String[] keyAndHash = a.keyAndHash().derive(id);
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            INSERT INTO payment_attempt
              (id, trade_order_no, seq, channel_account_id, origin, previous_attempt_id,
               excluded_domains, provider_idempotency_key, create_request_hash, status,
               result_certainty, amount, currency, payment_method, created_at, updated_at,
               sub_merchant, payer_ref)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'CREATED', 'UNKNOWN', ?, ?, ?, ?, ?, ?, ?)
            """)) {
      ps.setLong(1, id);
      ps.setString(2, a.tradeOrderNo());
      ps.setInt(3, seq);
      ps.setLong(4, a.channelAccountId());
      ps.setString(5, a.origin().name());
      ps.setObject(6, a.previousAttemptId());
      ps.setString(7, Sql.truncate(a.excludedDomains(), 256));
      ps.setString(8, keyAndHash[0]);
      ps.setString(9, keyAndHash[1]);
      ps.setLong(10, a.money().amount());
      ps.setString(11, a.money().currency());
      ps.setString(12, a.money().paymentMethod());
      ps.setObject(13, Sql.ts(now));
      ps.setObject(14, Sql.ts(now));
      ps.setString(15, a.money().party().subMerchant());
      ps.setString(16, a.money().party().payer());
      ps.executeUpdate();
    }
  }

  @Override
  public RecordResult record(AttemptChange change, Instant now) {
    Attempt from = change.expected();
    AttemptStatus to = change.to();
    ResultCertainty certainty = certaintyOf(to, change.evidence().outcome());
    String lease = change.taskLease();
    return tx.run(
        "record attempt outcome",
        c -> {
          if (lease != null && !JdbcRecoveryTaskStore.held(c, from.id(), lease)) {
            return RecordResult.LEASE_LOST; // taken over: the holder decides, nothing written
          }
          if (!move(c, change, certainty, now)) {
            // Race: a webhook, the response path or another worker recorded first. Never overwrite.
            return RecordResult.LOST;
          }
          long evidenceId =
              JdbcEvidenceStore.insert(c, from.id(), change.taskId(), change.evidence());
          if (to != from.status()) {
            AttemptEventRows.history(c, from, to, certainty, change.evidence(), evidenceId, now);
            if (to.isFinal()) {
              AttemptEventRows.outbox(c, from, to, now, dialect.sharded());
            }
          }
          if (!JdbcRecoveryTaskStore.apply(c, from.id(), change.task(), evidenceId, lease, now)) {
            // Race: the lease expired and was claimed between the check and now: roll back all.
            return RecordResult.LEASE_LOST;
          }
          return RecordResult.RECORDED;
        });
  }

  private static ResultCertainty certaintyOf(AttemptStatus to, PspOutcome outcome) {
    return switch (to) {
      case SUCCEEDED, FAILED -> outcome.certainty();
      case PENDING -> ResultCertainty.PENDING;
      case CREATED, UNKNOWN -> ResultCertainty.UNKNOWN;
    };
  }

  /** The attempt's compare-and-set on (id, version, status); false when it matched no row. */
  private static boolean move(
      Connection c, AttemptChange change, ResultCertainty certainty, Instant now)
      throws SQLException {
    Attempt from = change.expected();
    AttemptStatus to = change.to();
    PspOutcome outcome = change.evidence().outcome();
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            UPDATE payment_attempt SET status = ?, result_certainty = ?, error_code = ?,
              failover_eligible = ?, customer_action_pending = ?,
              provider_payment_id = coalesce(provider_payment_id, ?),
              replay_count = replay_count + ?, version = version + 1, updated_at = ?
            WHERE id = ? AND version = ? AND status = ?
            """)) {
      ps.setString(1, to.name());
      ps.setString(2, certainty.name());
      ps.setString(3, Sql.truncate(outcome.errorCode(), CODE_MAX));
      ps.setBoolean(4, to == AttemptStatus.FAILED && outcome.failoverEligible());
      ps.setBoolean(5, outcome.customerActionPending());
      ps.setString(6, outcome.providerPaymentId());
      ps.setInt(7, change.replayed() ? 1 : 0);
      ps.setObject(8, Sql.ts(now));
      ps.setLong(9, from.id());
      ps.setLong(10, from.version());
      ps.setString(11, from.status().name());
      return ps.executeUpdate() == 1;
    }
  }

  private static Optional<Attempt> attempt(Connection c, long id) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT " + ChannelRows.ATTEMPT_COLUMNS + " FROM payment_attempt WHERE id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(ChannelRows.attempt(rs)) : Optional.empty();
      }
    }
  }
}
