package dev.clearway.store.channel;

import static dev.clearway.store.channel.JdbcChannelOps.instant;
import static dev.clearway.store.channel.JdbcChannelQueues.requirePositive;

import dev.clearway.store.Sql;
import dev.clearway.store.SqlDialects;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * One payment order (one trade order number) as a person reads it: its attempts across PSPs, newest
 * first by seq, each with its provider evidence, newest first by id. Both are pages: the attempts
 * through {@code uk_attempt_seq (trade_order_no, seq)}, the evidence of each attempt through {@code
 * idx_evidence_attempt (attempt_id, id)}, one statement per attempt. No raw hash or provider object
 * id leaves the database. Every statement about the order names its trade order number or an
 * attempt id, so a sharding driver routes it to the order's shard.
 */
public final class JdbcOrderTimeline {
  private final DataSource dataSource;
  private final Sql sql;

  public JdbcOrderTimeline(DataSource dataSource) {
    this.dataSource = dataSource;
    this.sql = new Sql(dataSource);
  }

  /** One row of provider evidence, without its raw hash or provider object id. */
  public record EvidenceRow(
      long id,
      String source,
      String operation,
      String certainty,
      String providerStatus,
      String errorCode,
      Instant observedAt,
      String policyVersion,
      String requestId) {}

  /** An attempt of an order with the newest page of its evidence. */
  public record AttemptTimeline(
      long attemptId,
      int seq,
      long channelAccountId,
      String channel,
      String accountRef,
      String origin,
      Long previousAttemptId,
      String status,
      String certainty,
      String errorCode,
      int replayCount,
      Instant createdAt,
      Instant updatedAt,
      String recoveryTaskStatus,
      String compensationStatus,
      List<EvidenceRow> evidence) {

    /** This attempt read from its own row, completed with its account's names and evidence. */
    AttemptTimeline with(String[] account, List<EvidenceRow> newestEvidence) {
      return new AttemptTimeline(
          attemptId,
          seq,
          channelAccountId,
          account[0],
          account[1],
          origin,
          previousAttemptId,
          status,
          certainty,
          errorCode,
          replayCount,
          createdAt,
          updatedAt,
          recoveryTaskStatus,
          compensationStatus,
          List.copyOf(newestEvidence));
    }
  }

  /** A payment order, the merchant of the flow it pays (null if none), and a page of attempts. */
  public record OrderTimeline(
      String tradeOrderNo,
      String merchantId,
      long amount,
      String currency,
      String paymentMethod,
      String status,
      String closedReason,
      Instant createdAt,
      List<AttemptTimeline> attempts) {}

  /**
   * The order with at most {@code attemptLimit} of its attempts whose seq is below {@code
   * beforeSeq} ({@link Integer#MAX_VALUE} for the first page), newest first, each with at most
   * {@code evidenceLimit} of its newest evidence; empty when no payment order has that number.
   */
  public Optional<OrderTimeline> order(
      String tradeOrderNo, int beforeSeq, int attemptLimit, int evidenceLimit) {
    requirePositive(attemptLimit);
    requirePositive(evidenceLimit);
    if (namesNoShard(tradeOrderNo)) {
      return Optional.empty();
    }
    Optional<OrderTimeline> order = orderRow(tradeOrderNo);
    if (order.isEmpty()) {
      return order;
    }
    List<AttemptTimeline> attempts = new ArrayList<>();
    Map<Long, String[]> accounts = new LinkedHashMap<>();
    for (AttemptTimeline a : attempts(tradeOrderNo, beforeSeq, attemptLimit)) {
      String[] account = accounts.computeIfAbsent(a.channelAccountId(), this::account);
      attempts.add(a.with(account, evidence(a.attemptId(), Long.MAX_VALUE, evidenceLimit)));
    }
    OrderTimeline o = order.get();
    return Optional.of(
        new OrderTimeline(
            o.tradeOrderNo(),
            merchantOf(tradeOrderNo),
            o.amount(),
            o.currency(),
            o.paymentMethod(),
            o.status(),
            o.closedReason(),
            o.createdAt(),
            List.copyOf(attempts)));
  }

  /**
   * Whether the number, not derived from a flow id, names no shard of a sharded database: no
   * payment order there can have it, and the sharding driver refuses a statement naming it.
   */
  private boolean namesNoShard(String tradeOrderNo) {
    return SqlDialects.forDataSource(dataSource).namesNoRow(tradeOrderNo);
  }

  private Optional<OrderTimeline> orderRow(String tradeOrderNo) {
    return sql
        .query(
            """
            SELECT trade_order_no, amount, currency, payment_method, status, closed_reason,
                   created_at
              FROM payment_order
             WHERE trade_order_no = ?
            """,
            ps -> ps.setString(1, tradeOrderNo),
            rs ->
                new OrderTimeline(
                    rs.getString("trade_order_no"),
                    null,
                    rs.getLong("amount"),
                    rs.getString("currency"),
                    rs.getString("payment_method"),
                    rs.getString("status"),
                    rs.getString("closed_reason"),
                    instant(rs, "created_at"),
                    List.of()))
        .stream()
        .findFirst();
  }

  /** The merchant of the flow that owns the trade order number; null when none does. */
  private String merchantOf(String tradeOrderNo) {
    return sql
        .query(
            "SELECT merchant_id FROM pay_flow_fact WHERE trade_order_no = ?",
            ps -> ps.setString(1, tradeOrderNo),
            rs -> rs.getString("merchant_id"))
        .stream()
        .findFirst()
        .orElse(null);
  }

  /** An account's channel and reference; nulls when the account is gone. */
  private String[] account(long channelAccountId) {
    return sql
        .query(
            "SELECT channel, account_ref FROM channel_account WHERE id = ?",
            ps -> ps.setLong(1, channelAccountId),
            rs -> new String[] {rs.getString("channel"), rs.getString("account_ref")})
        .stream()
        .findFirst()
        .orElse(new String[] {null, null});
  }

  /**
   * A page of the order's attempts with their task and compensation, without account or evidence.
   * The three tables are joined by the attempt id (binding tables on a sharded layout); the account
   * and the flow are read by statements of their own, since a sharding driver does not join a
   * sharded table with a single one.
   */
  private List<AttemptTimeline> attempts(String tradeOrderNo, int beforeSeq, int attemptLimit) {
    return sql.query(
        """
        SELECT a.id, a.seq, a.channel_account_id, a.origin,
               a.previous_attempt_id, a.status, a.result_certainty, a.error_code,
               a.replay_count, a.created_at, a.updated_at,
               t.status AS task_status, c.status AS compensation_status
          FROM payment_attempt a
          LEFT JOIN recovery_task t ON t.attempt_id = a.id
          LEFT JOIN attempt_compensation c ON c.attempt_id = a.id
         WHERE a.trade_order_no = ? AND a.seq < ?
         ORDER BY a.seq DESC
         LIMIT ?
        """,
        ps -> {
          ps.setString(1, tradeOrderNo);
          ps.setInt(2, beforeSeq);
          ps.setInt(3, attemptLimit);
        },
        JdbcOrderTimeline::attempt);
  }

  /** Whether a payment attempt with this id exists. */
  public boolean attemptExists(long attemptId) {
    return !sql.query(
            "SELECT 1 FROM payment_attempt WHERE id = ?",
            ps -> ps.setLong(1, attemptId),
            rs -> rs.getInt(1))
        .isEmpty();
  }

  /**
   * An attempt's evidence, newest first: at most {@code limit} rows with an id below {@code
   * beforeId} ({@link Long#MAX_VALUE} for the first page).
   */
  public List<EvidenceRow> evidence(long attemptId, long beforeId, int limit) {
    requirePositive(limit);
    return sql.query(
        """
        SELECT id, source, operation, certainty, provider_status, error_code, observed_at,
               policy_version, request_id
          FROM provider_evidence
         WHERE attempt_id = ? AND id < ?
         ORDER BY id DESC
         LIMIT ?
        """,
        ps -> {
          ps.setLong(1, attemptId);
          ps.setLong(2, beforeId);
          ps.setInt(3, limit);
        },
        JdbcOrderTimeline::evidenceRow);
  }

  private static AttemptTimeline attempt(ResultSet rs) throws SQLException {
    long id = rs.getLong("id");
    long previous = rs.getLong("previous_attempt_id");
    Long previousId = rs.wasNull() ? null : previous;
    return new AttemptTimeline(
        id,
        rs.getInt("seq"),
        rs.getLong("channel_account_id"),
        null,
        null,
        rs.getString("origin"),
        previousId,
        rs.getString("status"),
        rs.getString("result_certainty"),
        rs.getString("error_code"),
        rs.getInt("replay_count"),
        instant(rs, "created_at"),
        instant(rs, "updated_at"),
        rs.getString("task_status"),
        rs.getString("compensation_status"),
        List.of());
  }

  private static EvidenceRow evidenceRow(ResultSet rs) throws SQLException {
    return new EvidenceRow(
        rs.getLong("id"),
        rs.getString("source"),
        rs.getString("operation"),
        rs.getString("certainty"),
        rs.getString("provider_status"),
        rs.getString("error_code"),
        instant(rs, "observed_at"),
        rs.getString("policy_version"),
        rs.getString("request_id"));
  }
}
