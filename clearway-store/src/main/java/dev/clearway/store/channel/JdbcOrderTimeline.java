package dev.clearway.store.channel;

import static dev.clearway.store.channel.JdbcChannelOps.instant;
import static dev.clearway.store.channel.JdbcChannelQueues.requirePositive;

import dev.clearway.store.Sql;
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
 * idx_evidence_attempt (attempt_id, id)}. No raw hash or provider object id leaves the database.
 */
public final class JdbcOrderTimeline {
  private final Sql sql;

  public JdbcOrderTimeline(DataSource dataSource) {
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
      List<EvidenceRow> evidence) {}

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
    Optional<OrderTimeline> order = orderRow(tradeOrderNo);
    if (order.isEmpty()) {
      return order;
    }
    Map<Long, List<EvidenceRow>> evidence =
        firstEvidence(tradeOrderNo, beforeSeq, attemptLimit, evidenceLimit);
    OrderTimeline o = order.get();
    return Optional.of(
        new OrderTimeline(
            o.tradeOrderNo(),
            o.merchantId(),
            o.amount(),
            o.currency(),
            o.paymentMethod(),
            o.status(),
            o.closedReason(),
            o.createdAt(),
            attempts(tradeOrderNo, beforeSeq, attemptLimit, evidence)));
  }

  private Optional<OrderTimeline> orderRow(String tradeOrderNo) {
    return sql
        .query(
            """
            SELECT o.trade_order_no, f.merchant_id, o.amount, o.currency, o.payment_method,
                   o.status, o.closed_reason, o.created_at
              FROM payment_order o
              LEFT JOIN pay_flow f ON f.trade_order_no = o.trade_order_no
             WHERE o.trade_order_no = ?
            """,
            ps -> ps.setString(1, tradeOrderNo),
            rs ->
                new OrderTimeline(
                    rs.getString("trade_order_no"),
                    rs.getString("merchant_id"),
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

  private List<AttemptTimeline> attempts(
      String tradeOrderNo, int beforeSeq, int attemptLimit, Map<Long, List<EvidenceRow>> evidence) {
    return sql.query(
        """
        SELECT a.id, a.seq, a.channel_account_id, ca.channel, ca.account_ref, a.origin,
               a.previous_attempt_id, a.status, a.result_certainty, a.error_code,
               a.replay_count, a.created_at, a.updated_at,
               t.status AS task_status, c.status AS compensation_status
          FROM payment_attempt a
          LEFT JOIN channel_account ca ON ca.id = a.channel_account_id
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
        rs -> attempt(rs, evidence));
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

  /** The newest evidence of each attempt of one page of the order's attempts, by attempt id. */
  private Map<Long, List<EvidenceRow>> firstEvidence(
      String tradeOrderNo, int beforeSeq, int attemptLimit, int evidenceLimit) {
    Map<Long, List<EvidenceRow>> byAttempt = new LinkedHashMap<>();
    sql.query(
            """
            SELECT e.attempt_id, e.id, e.source, e.operation, e.certainty,
                   e.provider_status, e.error_code, e.observed_at, e.policy_version, e.request_id
              FROM (SELECT ev.*,
                           ROW_NUMBER() OVER (PARTITION BY ev.attempt_id ORDER BY ev.id DESC) AS rn
                      FROM (SELECT id FROM payment_attempt
                             WHERE trade_order_no = ? AND seq < ?
                             ORDER BY seq DESC
                             LIMIT ?) a
                      JOIN provider_evidence ev ON ev.attempt_id = a.id) e
             WHERE e.rn <= ?
             ORDER BY e.attempt_id, e.id DESC
            """,
            ps -> {
              ps.setString(1, tradeOrderNo);
              ps.setInt(2, beforeSeq);
              ps.setInt(3, attemptLimit);
              ps.setInt(4, evidenceLimit);
            },
            rs -> Map.entry(rs.getLong("attempt_id"), evidenceRow(rs)))
        .forEach(
            e -> byAttempt.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue()));
    return byAttempt;
  }

  private static AttemptTimeline attempt(ResultSet rs, Map<Long, List<EvidenceRow>> evidence)
      throws SQLException {
    long id = rs.getLong("id");
    long previous = rs.getLong("previous_attempt_id");
    Long previousId = rs.wasNull() ? null : previous;
    return new AttemptTimeline(
        id,
        rs.getInt("seq"),
        rs.getLong("channel_account_id"),
        rs.getString("channel"),
        rs.getString("account_ref"),
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
        List.copyOf(evidence.getOrDefault(id, List.of())));
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
