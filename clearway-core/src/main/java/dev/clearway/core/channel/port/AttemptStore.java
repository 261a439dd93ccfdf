package dev.clearway.core.channel.port;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptOrigin;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.ProviderEvidence;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Attempts and their one recording transaction. Every write that changes an attempt is one
 * transaction with a compare-and-set on (id, version): attempt, history, evidence, outbox event and
 * the task's new state commit together or not at all. The two writes that span tables (an attempt
 * with its recovery task; a recorded observation) live here and nowhere else.
 *
 * <p>Leases: an attempt has no lease of its own; its recovery task's lease is the attempt's. A
 * worker (the create path from insert until its create's grace ends, the recovery worker after a
 * claim, the flow's replay after {@link RecoveryTaskStore#holdTask}) writes the attempt only while
 * it still holds that lease ({@code lease_owner = token}); a write that lost it changes nothing.
 * Observers that hold no lease (webhooks, a close ordered by the flow) record against the attempt
 * version they read and nothing else, so they never overwrite a newer result.
 */
public interface AttemptStore {

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
   * The one recording transaction: CAS the attempt from {@code change.expected()}'s version, append
   * evidence and (when the status changes) history and the outbox event, then apply the task
   * change. A writer that holds the task's lease ({@code change.taskLease()} set) writes only while
   * the task is still LEASED to that token: otherwise {@link RecordResult#LEASE_LOST} and the whole
   * transaction is rolled back. {@link RecordResult#LOST} when the attempt's CAS matched no row:
   * someone else recorded first; re-read and never overwrite.
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
      String taskLease) {

    /**
     * An observer's change (a webhook, a close ordered by the flow): no task lease, fenced by the
     * attempt's version alone, evidence not from a replay.
     */
    public static AttemptChange of(
        Attempt expected, AttemptStatus to, ProviderEvidence evidence, TaskChange task) {
      return new AttemptChange(expected, to, evidence, task, false, null, null);
    }

    /** The same change written by the holder of the attempt's recovery task under its token. */
    public AttemptChange heldBy(Long taskId, String taskLease) {
      return new AttemptChange(expected, to, evidence, task, replayed, taskId, taskLease);
    }

    /** The same change, its evidence the answer to a transport replay of the create. */
    public AttemptChange asReplay() {
      return new AttemptChange(expected, to, evidence, task, true, taskId, taskLease);
    }
  }

  /** What happens to the attempt's open task. */
  sealed interface TaskChange {
    /** The attempt is final: the task is resolved. */
    record Resolve() implements TaskChange {}

    /** Not final: due again at {@code dueAt}, next strategy {@code strategy}. */
    record Reschedule(Instant dueAt, String strategy, String lastError) implements TaskChange {}

    /** Past the policy's maximum unknown age: a person decides. */
    record Manual(String reason) implements TaskChange {}
  }
}
