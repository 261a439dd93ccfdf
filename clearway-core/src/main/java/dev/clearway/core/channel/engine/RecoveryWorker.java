package dev.clearway.core.channel.engine;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.EvidenceSource;
import dev.clearway.core.channel.domain.PaymentOrder;
import dev.clearway.core.channel.domain.ProviderEvidence;
import dev.clearway.core.channel.domain.RecoveryTask;
import dev.clearway.core.channel.policy.Operation;
import dev.clearway.core.channel.policy.PolicyRule;
import dev.clearway.core.channel.policy.RecoveryStrategy;
import dev.clearway.core.channel.port.ChannelStore.AttemptChange;
import dev.clearway.core.channel.port.ChannelStore.RecordResult;
import dev.clearway.core.channel.port.ChannelStore.TaskChange;
import dev.clearway.core.channel.spi.PspAdapter;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.engine.TokenMint;
import dev.clearway.core.port.WorkerFailures;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Claims due recovery tasks with a lease (FOR UPDATE SKIP LOCKED; takeover once a lease expires)
 * and runs each task's current strategy against the attempt's own channel account, paced by the
 * policy's query QPS and bounded by its query concurrency (seed 001 sections 3, 4 and 8). The
 * claim's transaction has ended before any PSP call. Results go through {@link AttemptRecorder}
 * under the claim's token, so a worker whose lease was taken over writes nothing, and a late worker
 * can never overwrite what a webhook or the response path recorded. A task whose pacing slot or
 * concurrency permit would come after its lease ends is rescheduled instead of waiting.
 */
public final class RecoveryWorker {

  /**
   * How the worker claims.
   *
   * @param owner the prefix of this worker's claim tokens (each claim gets a unique token)
   */
  public record Settings(String owner, int claimBatch, Duration lease) {}

  private final ChannelContext ctx;
  private final AttemptRecorder recorder;
  private final CreateExecutor executor;
  private final Settings settings;
  private final TokenMint tokens;
  private final Map<Long, Semaphore> concurrency = new ConcurrentHashMap<>();
  private final WorkerFailures failures;

  public RecoveryWorker(ChannelContext ctx, Settings settings) {
    this(ctx, settings, WorkerFailures.systemLogger());
  }

  /**
   * @param failures told of every task that threw (loop {@code channel-recovery-task})
   */
  public RecoveryWorker(ChannelContext ctx, Settings settings, WorkerFailures failures) {
    this.ctx = ctx;
    this.recorder = new AttemptRecorder(ctx);
    this.executor = new CreateExecutor(ctx, recorder);
    this.settings = settings;
    this.tokens = new TokenMint(settings.owner());
    this.failures = failures;
  }

  /** One claim round, each task run on {@code pool}; returns how many tasks were claimed. */
  public int runOnce(ExecutorService pool) {
    List<RecoveryTask> claimed =
        ctx.store()
            .claimDue(
                tokens.next(), settings.claimBatch(), settings.lease(), ctx.clock().instant());
    List<Future<?>> running = new ArrayList<>(claimed.size());
    for (RecoveryTask task : claimed) {
      running.add(pool.submit(() -> run(task)));
    }
    for (Future<?> f : running) {
      try {
        f.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return claimed.size();
      } catch (java.util.concurrent.ExecutionException e) {
        // One task's failure (a database hiccup) leaves its lease to expire; the others go on.
        failures.failed("channel-recovery-task", e.getCause());
      }
    }
    return claimed.size();
  }

  /** Runs one claimed task, under the lease its claim returned ({@code task.leaseOwner()}). */
  public void run(RecoveryTask task) {
    Optional<Attempt> found = ctx.store().attempt(task.attemptId());
    if (found.isEmpty()) {
      return;
    }
    Attempt attempt = found.get();
    Instant now = ctx.clock().instant();
    if (attempt.isFinal()) {
      ctx.store().resolveTask(attempt.id(), now); // another path finished it first
      return;
    }
    PspAdapter adapter = ctx.adapters().adapter(attempt.channelAccountId());
    String family =
        ctx.store().order(attempt.tradeOrderNo()).map(PaymentOrder::paymentMethod).orElse("");
    Optional<PolicyRule> rule =
        ctx.policies().rule(task.policyVersion(), adapter.channel(), family, Operation.CREATE);
    int runs = task.attemptCount(); // this run's number, 1-based after the claim
    if (rule.isEmpty() || !now.isBefore(attempt.createdAt().plus(rule.get().maxUnknownAge()))) {
      escalate(task, attempt, rule.isEmpty() ? "NO_POLICY_RULE" : "MAX_UNKNOWN_AGE", now);
      return;
    }
    RecoveryStrategy strategy = strategyOf(task, rule.get());
    if (!strategy.callsPsp() || !strategy.supportedBy(adapter.capabilities())) {
      // WAIT_WEBHOOK / RECONCILIATION: no call; move on to the next strategy after the delay.
      moveOn(
          task,
          now.plus(rule.get().delayAfter(runs)),
          AttemptRecorder.strategyFor(rule.get(), runs).name(),
          "WAITING_" + strategy.name());
      return;
    }
    callPsp(task, attempt, adapter, family, rule.get(), strategy);
  }

  /**
   * Calls the PSP for a task within its lease: a concurrency permit and a pacing slot that cannot
   * be had before the lease ends hand the task back instead (due after the policy's first delay, or
   * when the account's budget frees up), so a worker never waits, or calls, past its lease.
   */
  private void callPsp(
      RecoveryTask task,
      Attempt attempt,
      PspAdapter adapter,
      String family,
      PolicyRule rule,
      RecoveryStrategy strategy) {
    long account = attempt.channelAccountId();
    Semaphore slots =
        concurrency.computeIfAbsent(account, id -> new Semaphore(rule.queryConcurrency()));
    if (!acquire(slots, task)) {
      moveOn(task, ctx.clock().instant().plus(rule.delayAfter(0)), task.strategy());
      return;
    }
    try {
      if (!ctx.limiter().acquireWithin(account, rule.queryQps(), task.leaseUntil(), ctx.clock())) {
        Duration backlog = ctx.limiter().backlog(account);
        moveOn(task, ctx.clock().instant().plus(backlog), task.strategy());
        return;
      }
      int runs = task.attemptCount();
      if (strategy == RecoveryStrategy.IDEMPOTENT_REPLAY) {
        executor.replay(attempt, family, task.policyVersion(), task.id(), runs, task.leaseOwner());
        return;
      }
      PspOutcome outcome = adapter.retrieve(attempt.ref());
      recorder.record(
          new AttemptRecorder.Observation(
              attempt,
              outcome,
              EvidenceSource.QUERY,
              strategy.name(),
              false,
              false,
              task.id(),
              runs,
              rule,
              task.policyVersion(),
              task.leaseOwner()));
    } finally {
      slots.release();
    }
  }

  /** A concurrency permit, waiting at most until the task's lease ends. */
  private boolean acquire(Semaphore slots, RecoveryTask task) {
    long millis = Duration.between(ctx.clock().instant(), task.leaseUntil()).toMillis();
    try {
      return millis > 0 && slots.tryAcquire(millis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Hands a task back, its strategy unchanged, because its call would not fit in the lease. */
  private void moveOn(RecoveryTask task, Instant dueAt, String strategy) {
    moveOn(task, dueAt, strategy, PacedRateLimiter.PAST_LEASE);
  }

  /** Reschedules a claimed task and releases its lease; a lost lease writes nothing. */
  private void moveOn(RecoveryTask task, Instant dueAt, String strategy, String lastError) {
    if (!ctx.store().rescheduleTask(task, dueAt, strategy, lastError)) {
      ctx.events().leaseLost(AttemptRecorder.TASK_TABLE);
    }
  }

  private static RecoveryStrategy strategyOf(RecoveryTask task, PolicyRule rule) {
    try {
      RecoveryStrategy named = RecoveryStrategy.valueOf(task.strategy());
      return rule.strategies().contains(named) ? named : AttemptRecorder.strategyFor(rule, 0);
    } catch (IllegalArgumentException e) {
      return AttemptRecorder.strategyFor(rule, 0);
    }
  }

  private void escalate(RecoveryTask task, Attempt attempt, String reason, Instant now) {
    ProviderEvidence note =
        new ProviderEvidence(
            EvidenceSource.MANUAL,
            "ESCALATE",
            PspOutcome.unknown(reason),
            task.policyVersion(),
            now);
    RecordResult result =
        ctx.store()
            .record(
                new AttemptChange(
                    attempt,
                    attempt.status(),
                    note,
                    new TaskChange.Manual(reason),
                    false,
                    task.id(),
                    task.leaseOwner()),
                now);
    if (result == RecordResult.LEASE_LOST) {
      ctx.events().leaseLost(AttemptRecorder.TASK_TABLE);
    }
  }
}
