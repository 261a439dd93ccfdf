package dev.clearway.core.channel.port;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptOrigin;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.domain.PaymentOrder;
import dev.clearway.core.channel.domain.ProviderEvidence;
import dev.clearway.core.channel.domain.RecoveryTask;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Persistence of the channel layer. Every write that changes an attempt is one transaction with a
 * compare-and-set on (id, version): attempt, history, evidence, outbox event and the task's new
 * state commit together or not at all (seed 001 section 5).
 */
public interface ChannelStore {

  List<ChannelAccount> accounts();

  /** Inserts the order unless it exists; returns the stored one (amounts are never overwritten). */
  PaymentOrder openOrder(PaymentOrder order, Instant now);

  Optional<PaymentOrder> order(String tradeOrderNo);

  /** Every attempt of an order, by seq. */
  List<Attempt> attempts(String tradeOrderNo);

  Optional<Attempt> attempt(long attemptId);

  /** The attempt whose provider idempotency key (unique across accounts here) is {@code key}. */
  Optional<Attempt> attemptByKey(String key);

  /**
   * Inserts a new attempt and its recovery task (READY, due at {@code task.dueAt()}) in one
   * transaction, so that an attempt is never without its task. Empty when the order is closed or
   * another attempt of the order is live ({@code uk_attempt_live}): the caller re-reads.
   */
  Optional<Attempt> insertAttempt(NewAttempt attempt, NewTask task, Instant now);

  /** What a new attempt is made of. The key and request hash are fixed here, for its lifetime. */
  record NewAttempt(
      String tradeOrderNo,
      long channelAccountId,
      AttemptOrigin origin,
      Long previousAttemptId,
      String excludedDomains,
      Attempt.Money money,
      KeyAndHash keyAndHash) {}

  /**
   * The provider idempotency key is derived from the attempt id (insert first, then derive), so the
   * store computes it; the hash function is given so the hash covers the key.
   */
  @FunctionalInterface
  interface KeyAndHash {
    /** Returns {key, sha256 hex} for the attempt with this id. */
    String[] derive(long attemptId);
  }

  record NewTask(String strategy, Instant dueAt, String policyVersion) {}

  /**
   * The one transaction of seed 001 section 5: CAS the attempt from {@code change.expected()}'s
   * version, append evidence and (when the status changes) history and the outbox event, then apply
   * the task change. {@link RecordResult#LOST} when the CAS matched no row: someone else recorded
   * first; re-read and never overwrite.
   */
  RecordResult record(AttemptChange change, Instant now);

  enum RecordResult {
    RECORDED,
    LOST
  }

  /** A recorded observation and what it does to the attempt and its task. */
  record AttemptChange(
      Attempt expected,
      AttemptStatus to,
      ProviderEvidence evidence,
      TaskChange task,
      boolean replayed,
      Long taskId) {}

  /** What happens to the attempt's open task. */
  sealed interface TaskChange {
    /** The attempt is final: the task is resolved. */
    record Resolve() implements TaskChange {}

    /** Not final: due again at {@code dueAt}, next strategy {@code strategy}. */
    record Reschedule(Instant dueAt, String strategy, String lastError) implements TaskChange {}

    /** Past the policy's maximum unknown age: a person decides. */
    record Manual(String reason) implements TaskChange {}
  }

  /** Records evidence about a final attempt (a late webhook, a query): the attempt is not moved. */
  void appendEvidence(long attemptId, Long taskId, ProviderEvidence evidence);

  /**
   * Closes an order whose attempts are all final and unpaid. False when an attempt is live or
   * succeeded: the caller must deal with that first.
   */
  boolean closeOrder(String tradeOrderNo, String reason, Instant now);

  /**
   * Claims due open tasks: READY and due, or LEASED with an expired lease (takeover), with FOR
   * UPDATE SKIP LOCKED, setting the lease and attempt_count + 1.
   */
  List<RecoveryTask> claimDue(String owner, int limit, Duration lease, Instant now);

  /** Resolves the task of an attempt another path has already made final. */
  void resolveTask(long attemptId, Instant now);

  /** Makes the task of an attempt due now (a webhook hinted at news). */
  void wakeTask(long attemptId, Instant now);

  /** Oldest due-or-leased open task's creation time, for the recovery oldest-age gauge. */
  Optional<Instant> oldestOpenTask();

  long openTasks();

  /**
   * Opens the compensation of an attempt charged although recorded FAILED (a late success, a PSP
   * that lied). Idempotent: true only the first time.
   */
  boolean openCompensation(Compensation compensation, Instant now);

  List<Compensation> dueCompensations(int limit, Instant now);

  /** CAS on the compensation's version. */
  boolean updateCompensation(Compensation expected, String status, String error, Instant dueAt);

  record Compensation(
      long attemptId,
      String tradeOrderNo,
      String refundNo,
      long amount,
      String status,
      String reason,
      int tries,
      long version) {}

  /** The provider refund number of a flow refund, bound to the attempt on first use. */
  ChannelRefund channelRefund(String refundOrderNo, long attemptId, long amount, Instant now);

  Optional<ChannelRefund> findChannelRefund(String refundOrderNo);

  /** A refund the PSP CLOSED needs a new number: generation + 1, CAS on the generation. */
  boolean nextRefundGeneration(ChannelRefund expected, Instant now);

  record ChannelRefund(
      String refundOrderNo, long attemptId, String providerRefundNo, int generation, long amount) {}

  /**
   * Moves a claimed task on without touching its attempt (a strategy that waits, such as
   * WAIT_WEBHOOK). CAS on the task's version: false if the lease was lost.
   */
  boolean rescheduleTask(RecoveryTask claimed, Instant dueAt, String strategy, String lastError);

  /**
   * Claims a webhook event before any work: true the first time the account's event id is seen, or
   * when an earlier claim was never finished and was made before {@code staleBefore} (its process
   * died); false for a duplicate.
   */
  boolean claimDelivery(Delivery delivery, Instant now, Instant staleBefore);

  /** The claimed event's work is done: every later delivery is a duplicate. */
  void finishDelivery(Delivery delivery, Instant now);

  /** The claimed event's work failed: forget the claim, so that a redelivery does the work. */
  void releaseDelivery(Delivery delivery);

  /**
   * One webhook event of one channel account. Event ids are unique per PSP account only (two
   * accounts of one channel may both send {@code evt_1}), so the account is part of the key.
   */
  record Delivery(long channelAccountId, String channel, String eventId) {}
}
