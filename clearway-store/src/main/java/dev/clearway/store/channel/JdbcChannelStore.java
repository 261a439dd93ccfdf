package dev.clearway.store.channel;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.domain.PaymentOrder;
import dev.clearway.core.channel.domain.ProviderEvidence;
import dev.clearway.core.channel.domain.RecoveryTask;
import dev.clearway.core.channel.port.ChannelStore;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.ResultCertainty;
import dev.clearway.store.Sql;
import dev.clearway.store.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * PostgreSQL implementation of the channel layer's store. The attempt's compare-and-set, its
 * evidence, history, outbox event and task change commit in one transaction ({@link #record}),
 * fenced by the writer's task lease when it holds one. Recovery tasks live in {@link
 * RecoveryTaskTable}; compensations, channel refunds and the webhook inbox in {@link
 * ChannelSideTables}.
 */
public final class JdbcChannelStore implements ChannelStore {

  private static final String UNIQUE_VIOLATION = "23505";
  private static final int CODE_MAX = 64;

  private final DataSource dataSource;
  private final Sql sql;
  private final ChannelSideTables side;
  private final RecoveryTaskTable tasks;

  public JdbcChannelStore(DataSource dataSource) {
    this.dataSource = dataSource;
    this.sql = new Sql(dataSource);
    this.side = new ChannelSideTables(sql);
    this.tasks = new RecoveryTaskTable(sql);
  }

  /** Inserts or updates a channel account (configuration, not money). */
  public void upsertAccount(ChannelAccount a) {
    sql.update(
        """
        INSERT INTO channel_account
          (id, channel, account_ref, failure_domain, payment_methods, priority, enabled)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (id) DO UPDATE SET failure_domain = EXCLUDED.failure_domain,
          payment_methods = EXCLUDED.payment_methods, priority = EXCLUDED.priority,
          enabled = EXCLUDED.enabled
        """,
        ps -> {
          ps.setLong(1, a.id());
          ps.setString(2, a.channel());
          ps.setString(3, a.accountRef());
          ps.setString(4, a.failureDomain());
          ps.setString(5, String.join(",", a.paymentMethods()));
          ps.setInt(6, a.priority());
          ps.setBoolean(7, a.enabled());
        });
  }

  @Override
  public List<ChannelAccount> accounts() {
    return sql.query(
        "SELECT * FROM channel_account ORDER BY priority, id", ps -> {}, ChannelRows::account);
  }

  @Override
  public PaymentOrder openOrder(PaymentOrder order, Instant now) {
    sql.update(
        """
        INSERT INTO payment_order
          (trade_order_no, amount, currency, payment_method, status, created_at, updated_at)
        VALUES (?, ?, ?, ?, 'OPEN', ?, ?)
        ON CONFLICT (trade_order_no) DO NOTHING
        """,
        ps -> {
          ps.setString(1, order.tradeOrderNo());
          ps.setLong(2, order.amount());
          ps.setString(3, order.currency());
          ps.setString(4, order.paymentMethod());
          ps.setObject(5, Sql.ts(now));
          ps.setObject(6, Sql.ts(now));
        });
    return order(order.tradeOrderNo()).orElseThrow();
  }

  @Override
  public Optional<PaymentOrder> order(String tradeOrderNo) {
    return sql
        .query(
            "SELECT * FROM payment_order WHERE trade_order_no = ?",
            ps -> ps.setString(1, tradeOrderNo),
            rs ->
                new PaymentOrder(
                    rs.getString("trade_order_no"),
                    rs.getLong("amount"),
                    rs.getString("currency"),
                    rs.getString("payment_method"),
                    "CLOSED".equals(rs.getString("status"))))
        .stream()
        .findFirst();
  }

  @Override
  public List<Attempt> attempts(String tradeOrderNo) {
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
    return inTransaction(
        "insert attempt",
        c -> {
          // The order's row lock serialises attempt creation for one order.
          String orderStatus = null;
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT status FROM payment_order WHERE trade_order_no = ? FOR UPDATE")) {
            ps.setString(1, a.tradeOrderNo());
            try (ResultSet rs = ps.executeQuery()) {
              if (rs.next()) {
                orderStatus = rs.getString(1);
              }
            }
          }
          if (!"OPEN".equals(orderStatus)) {
            return Optional.empty();
          }
          int live = 0;
          int seq = 1;
          try (PreparedStatement ps =
              c.prepareStatement(
                  """
                  SELECT count(*) FILTER (WHERE status IN ('CREATED', 'PENDING', 'UNKNOWN')),
                         coalesce(max(seq), 0) + 1
                  FROM payment_attempt WHERE trade_order_no = ?
                  """)) {
            ps.setString(1, a.tradeOrderNo());
            try (ResultSet rs = ps.executeQuery()) {
              rs.next();
              live = rs.getInt(1);
              seq = rs.getInt(2);
            }
          }
          if (live > 0) {
            return Optional.empty();
          }
          long id;
          try (PreparedStatement ps = c.prepareStatement("SELECT nextval('payment_attempt_seq')");
              ResultSet rs = ps.executeQuery()) {
            rs.next();
            id = rs.getLong(1);
          }
          String[] keyAndHash = a.keyAndHash().derive(id);
          int attemptSeq = seq;
          try (PreparedStatement ps =
              c.prepareStatement(
                  """
                  INSERT INTO payment_attempt
                    (id, trade_order_no, seq, channel_account_id, origin, previous_attempt_id,
                     excluded_domains, provider_idempotency_key, create_request_hash, status,
                     result_certainty, amount, currency, payment_method, created_at, updated_at)
                  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'CREATED', 'UNKNOWN', ?, ?, ?, ?, ?)
                  """)) {
            ps.setLong(1, id);
            ps.setString(2, a.tradeOrderNo());
            ps.setInt(3, attemptSeq);
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
            ps.executeUpdate();
          }
          RecoveryTaskTable.insert(c, id, a.channelAccountId(), task, now);
          return attempt(c, id);
        });
  }

  @Override
  public RecordResult record(AttemptChange change, Instant now) {
    Attempt from = change.expected();
    AttemptStatus to = change.to();
    PspOutcome outcome = change.evidence().outcome();
    ResultCertainty certainty =
        switch (to) {
          case SUCCEEDED, FAILED -> outcome.certainty();
          case PENDING -> ResultCertainty.PENDING;
          case CREATED, UNKNOWN -> ResultCertainty.UNKNOWN;
        };
    String lease = change.taskLease();
    return inTransaction(
        "record attempt outcome",
        c -> {
          if (lease != null && !RecoveryTaskTable.held(c, from.id(), lease)) {
            return RecordResult.LEASE_LOST; // taken over: the holder decides, nothing written
          }
          int moved;
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
            moved = ps.executeUpdate();
          }
          if (moved == 0) {
            // Race: a webhook, the response path or another worker recorded first. Never overwrite.
            return RecordResult.LOST;
          }
          long evidenceId = side.insertEvidence(c, from.id(), change.taskId(), change.evidence());
          if (to != from.status()) {
            insertHistory(c, from, to, certainty, change.evidence(), evidenceId, now);
            if (to.isFinal()) {
              insertOutbox(c, from, to, now);
            }
          }
          if (!RecoveryTaskTable.apply(c, from.id(), change.task(), evidenceId, lease, now)) {
            // Race: the lease expired and was claimed between the check and now: roll back all.
            return RecordResult.LEASE_LOST;
          }
          return RecordResult.RECORDED;
        });
  }

  private static void insertHistory(
      Connection c,
      Attempt from,
      AttemptStatus to,
      ResultCertainty certainty,
      ProviderEvidence evidence,
      long evidenceId,
      Instant now)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            INSERT INTO payment_attempt_history
              (attempt_id, version, from_status, to_status, certainty, source, evidence_id, at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)) {
      ps.setLong(1, from.id());
      ps.setLong(2, from.version() + 1);
      ps.setString(3, from.status().name());
      ps.setString(4, to.name());
      ps.setString(5, certainty.name());
      ps.setString(6, evidence.source().name());
      ps.setLong(7, evidenceId);
      ps.setObject(8, Sql.ts(now));
      ps.executeUpdate();
    }
  }

  private static void insertOutbox(Connection c, Attempt from, AttemptStatus to, Instant now)
      throws SQLException {
    String type =
        to == AttemptStatus.SUCCEEDED ? "PaymentAttemptSucceeded" : "PaymentAttemptFailed";
    long version = from.version() + 1;
    String payload =
        "{\"attemptId\":"
            + from.id()
            + ",\"tradeOrderNo\":\""
            + from.tradeOrderNo()
            + "\",\"channelAccountId\":"
            + from.channelAccountId()
            + ",\"status\":\""
            + to.name()
            + "\",\"version\":"
            + version
            + "}";
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            INSERT INTO outbox_event (event_id, event_type, aggregate_id, merchant_id, payload,
                                      created_at)
            VALUES (?, ?, ?, (SELECT merchant_id FROM pay_flow WHERE trade_order_no = ?), ?, ?)
            """)) {
      ps.setString(1, "attempt-" + from.id() + "-v" + version);
      ps.setString(2, type);
      ps.setLong(3, from.id());
      ps.setString(4, from.tradeOrderNo());
      ps.setString(5, payload);
      ps.setObject(6, Sql.ts(now));
      ps.executeUpdate();
    }
  }

  @Override
  public void appendEvidence(long attemptId, Long taskId, ProviderEvidence evidence) {
    inTransaction("append evidence", c -> side.insertEvidence(c, attemptId, taskId, evidence));
  }

  @Override
  public boolean closeOrder(String tradeOrderNo, String reason, Instant now) {
    return inTransaction(
        "close order",
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  """
                  INSERT INTO payment_order (trade_order_no, amount, currency, payment_method,
                    status, closed_reason, created_at, updated_at)
                  VALUES (?, 0, 'XXX', 'none', 'OPEN', NULL, ?, ?)
                  ON CONFLICT (trade_order_no) DO NOTHING
                  """)) {
            ps.setString(1, tradeOrderNo);
            ps.setObject(2, Sql.ts(now));
            ps.setObject(3, Sql.ts(now));
            ps.executeUpdate();
          }
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT 1 FROM payment_order WHERE trade_order_no = ? FOR UPDATE")) {
            ps.setString(1, tradeOrderNo);
            ps.executeQuery().close();
          }
          try (PreparedStatement ps =
              c.prepareStatement(
                  """
                  SELECT count(*) FROM payment_attempt WHERE trade_order_no = ?
                    AND status IN ('CREATED', 'PENDING', 'UNKNOWN', 'SUCCEEDED')
                  """)) {
            ps.setString(1, tradeOrderNo);
            try (ResultSet rs = ps.executeQuery()) {
              rs.next();
              if (rs.getInt(1) > 0) {
                c.rollback();
                return false;
              }
            }
          }
          try (PreparedStatement ps =
              c.prepareStatement(
                  """
                  UPDATE payment_order SET status = 'CLOSED',
                    closed_reason = coalesce(closed_reason, ?), updated_at = ?
                  WHERE trade_order_no = ?
                  """)) {
            ps.setString(1, Sql.truncate(reason, CODE_MAX));
            ps.setObject(2, Sql.ts(now));
            ps.setString(3, tradeOrderNo);
            return ps.executeUpdate() == 1;
          }
        });
  }

  @Override
  public List<RecoveryTask> claimDue(String owner, int limit, Duration lease, Instant now) {
    return tasks.claimDue(owner, limit, lease, now);
  }

  @Override
  public void resolveTask(long attemptId, Instant now) {
    tasks.resolve(attemptId, now);
  }

  @Override
  public void wakeTask(long attemptId, Instant now) {
    tasks.wake(attemptId, now);
  }

  @Override
  public boolean holdTask(long attemptId, String holder, Instant until, Instant now) {
    return tasks.hold(attemptId, holder, until, now);
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
        .filter(java.util.Objects::nonNull)
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

  @Override
  public boolean openCompensation(Compensation compensation, Instant now) {
    return side.openCompensation(compensation, now);
  }

  @Override
  public List<Compensation> claimCompensations(int limit, Duration lease, Instant now) {
    return side.claimCompensations(limit, lease, now);
  }

  @Override
  public boolean updateCompensation(
      Compensation expected, String status, String error, Instant dueAt) {
    if ("PENDING".equals(status)) {
      return side.updateCompensation(expected, status, error, dueAt);
    }
    // A settled compensation and its domain event commit together (seed 001 section 5).
    return inTransaction(
            "settle compensation",
            c -> {
              if (!side.updateCompensation(c, expected, status, error, dueAt)) {
                return RecordResult.LOST; // Race: another worker settled it first.
              }
              String type =
                  "REFUNDED".equals(status)
                      ? "DuplicateChargeRefunded"
                      : "DuplicateChargeNeedsReview";
              try (PreparedStatement ps =
                  c.prepareStatement(
                      """
                  INSERT INTO outbox_event (event_id, event_type, aggregate_id, merchant_id,
                                            payload, created_at)
                  VALUES (?, ?, ?, (SELECT merchant_id FROM pay_flow WHERE trade_order_no = ?),
                          ?, ?)
                  """)) {
                ps.setString(1, "compensation-" + expected.attemptId() + "-" + status);
                ps.setString(2, type);
                ps.setLong(3, expected.attemptId());
                ps.setString(4, expected.tradeOrderNo());
                ps.setString(
                    5,
                    "{\"attemptId\":"
                        + expected.attemptId()
                        + ",\"tradeOrderNo\":\""
                        + expected.tradeOrderNo()
                        + "\",\"refundNo\":\""
                        + expected.refundNo()
                        + "\",\"amount\":"
                        + expected.amount()
                        + ",\"status\":\""
                        + status
                        + "\"}");
                ps.setObject(6, Sql.ts(dueAt));
                ps.executeUpdate();
              }
              return RecordResult.RECORDED;
            })
        == RecordResult.RECORDED;
  }

  @Override
  public ChannelRefund channelRefund(
      String refundOrderNo, long attemptId, long amount, Instant now) {
    return side.channelRefund(refundOrderNo, attemptId, amount, now);
  }

  @Override
  public boolean rescheduleTask(
      RecoveryTask claimed, Instant dueAt, String strategy, String lastError) {
    return tasks.reschedule(claimed, dueAt, strategy, lastError);
  }

  @Override
  public Optional<ChannelRefund> findChannelRefund(String refundOrderNo) {
    return side.findChannelRefund(refundOrderNo);
  }

  @Override
  public boolean nextRefundGeneration(ChannelRefund expected, Instant now) {
    return side.nextRefundGeneration(expected, now);
  }

  @Override
  public boolean claimDelivery(Delivery delivery, Instant now, Instant staleBefore) {
    return side.claimDelivery(delivery, now, staleBefore);
  }

  @Override
  public void finishDelivery(Delivery delivery, Instant now) {
    side.finishDelivery(delivery, now);
  }

  @Override
  public void releaseDelivery(Delivery delivery) {
    side.releaseDelivery(delivery);
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

  @FunctionalInterface
  private interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  private <T> T inTransaction(String operation, Work<T> work) {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try {
        T result = work.run(c);
        if (result instanceof RecordResult r && r != RecordResult.RECORDED
            || result instanceof Optional<?> o && o.isEmpty()) {
          c.rollback();
        } else {
          c.commit();
        }
        return result;
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        if (e instanceof SQLException s && UNIQUE_VIOLATION.equals(s.getSQLState())) {
          // Race: uk_attempt_live or uk_attempt_provider_key refused a concurrent insert.
          @SuppressWarnings("unchecked")
          T empty = (T) Optional.empty();
          if ("insert attempt".equals(operation)) {
            return empty;
          }
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
