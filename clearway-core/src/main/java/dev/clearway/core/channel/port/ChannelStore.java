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
 *
 * <p>Leases: an attempt has no lease of its own; its recovery task's lease is the attempt's. A
 * worker (the create path from insert until its create's grace ends, the recovery worker after a
 * claim, the flow's replay after {@link #holdTask}) writes the attempt only while it still holds
 * that lease ({@code lease_owner = token}); a write that lost it changes nothing. Observers that
 * hold no lease (webhooks, a close ordered by the flow) record against the attempt version they
 * read and nothing else, so they never overwrite a newer result. Compensations are fenced by the
 * version their claim bumped.
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
   * Inserts a new attempt and its recovery task in one transaction, so that an attempt is never
   * without its task. The task is LEASED by the creating call ({@code task.holder()}) until {@code
   * task.dueAt()}: the create's answer is recorded under that lease, and the recovery worker takes
   * the task over only once it has expired. Empty when the order is closed or another attempt of
   * the order is live ({@code uk_attempt_live}): the caller re-reads.
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

  /**
   * The recovery task of a new attempt.
   *
   * @param dueAt when the creating call's lease ends (its create's timeout plus a margin)
   * @param holder the creating call's lease token
   */
  record NewTask(String strategy, Instant dueAt, String policyVersion, String holder) {

    public NewTask {
      java.util.Objects.requireNonNull(holder, "the creating call holds the new task");
    }
  }

  /**
   * The one transaction of seed 001 section 5: CAS the attempt from {@code change.expected()}'s
   * version, append evidence and (when the status changes) history and the outbox event, then apply
   * the task change. A writer that holds the task's lease ({@code change.taskLease()} set) writes
   * only while the task is still LEASED to that token: otherwise {@link RecordResult#LEASE_LOST}
   * and the whole transaction is rolled back. {@link RecordResult#LOST} when the attempt's CAS
   * matched no row: someone else recorded first; re-read and never overwrite.
   */
  RecordResult record(AttemptChange change, Instant now);

  enum RecordResult {
    RECORDED,
    /** The attempt moved since it was read: nothing written. */
    LOST,
    /** The writer no longer holds the task's lease: nothing written. */
    LEASE_LOST
  }

  /**
   * A recorded observation and what it does to the attempt and its task.
   *
   * @param taskLease the token under which the writer holds the attempt's recovery task, or null
   *     for an observer that holds no lease (a webhook, a close ordered by the flow): an observer's
   *     write is fenced by the attempt's version alone
   */
  record AttemptChange(
      Attempt expected,
      AttemptStatus to,
      ProviderEvidence evidence,
      TaskChange task,
      boolean replayed,
      Long taskId,
      String taskLease) {}

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

  /**
   * Resolves the task of an attempt another path has already made final. Not fenced: a final
   * attempt needs no task, whoever holds it, and the holder's own record can no longer move it.
   */
  void resolveTask(long attemptId, Instant now);

  /**
   * Takes the lease of an attempt's task for a worker outside the recovery worker (the flow's
   * replay of a live attempt): a READY task, due or not, or a LEASED one whose lease has expired.
   * False while another worker holds it, or when the task is not open (resolved, or a person's).
   */
  boolean holdTask(long attemptId, String holder, Instant until, Instant now);

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

  /**
   * Claims up to {@code limit} due PENDING compensations (FOR UPDATE SKIP LOCKED): each is pushed
   * out to {@code now + lease}, so no other worker takes it meanwhile, and its version is bumped.
   * The returned rows carry the new version, which fences the claimant's update.
   */
  List<Compensation> claimCompensations(int limit, Duration lease, Instant now);

  /**
   * CAS on the version the claim returned (a claim bumps it): false, and nothing written, when the
   * claim was taken over or the compensation settled by another worker.
   */
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
   * WAIT_WEBHOOK, or a call the rate limiter could not fit in the lease) and releases the lease.
   * CAS on the version the claim returned (a claim bumps it): false if the lease was lost.
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
