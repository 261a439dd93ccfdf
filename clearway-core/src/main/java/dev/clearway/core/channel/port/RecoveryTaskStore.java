package dev.clearway.core.channel.port;

import dev.clearway.core.channel.domain.RecoveryTask;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Recovery tasks, one per attempt. A task's lease is its attempt's: a worker writes only while it
 * holds it ({@code lease_owner = token}). A task is inserted with its attempt and changed with a
 * recorded observation by {@link AttemptStore}; the writes here move a task without touching its
 * attempt. Every time written is the engine clock's {@code now}.
 */
public interface RecoveryTaskStore {

  /**
   * Claims due open tasks: READY and due, or LEASED with an expired lease (takeover), with FOR
   * UPDATE SKIP LOCKED, setting the lease and attempt_count + 1.
   */
  List<RecoveryTask> claimDue(String owner, int limit, Duration lease, Instant now);

  /**
   * Claims the task of one attempt if {@link #claimDue} would claim it now (a wake-up for it
   * arrived): READY and due, or LEASED with an expired lease; empty otherwise (not due yet, held,
   * settled, or a person's), so a stale, duplicated or early wake-up claims nothing.
   */
  Optional<RecoveryTask> claimTask(long attemptId, String owner, Duration lease, Instant now);

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

  /**
   * Moves a claimed task on without touching its attempt (a strategy that waits, such as
   * WAIT_WEBHOOK, or a call the rate limiter could not fit in the lease) and releases the lease.
   * CAS on the version the claim returned (a claim bumps it): false if the lease was lost.
   */
  boolean rescheduleTask(
      RecoveryTask claimed, Instant dueAt, String strategy, String lastError, Instant now);

  /** Oldest due-or-leased open task's creation time, for the recovery oldest-age gauge. */
  Optional<Instant> oldestOpenTask();

  long openTasks();
}
