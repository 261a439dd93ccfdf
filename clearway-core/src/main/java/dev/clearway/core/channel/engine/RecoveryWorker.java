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
import dev.clearway.core.channel.port.ChannelStore.TaskChange;
import dev.clearway.core.channel.spi.PspAdapter;
import dev.clearway.core.channel.spi.PspOutcome;
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

/**
 * Claims due recovery tasks with a lease (FOR UPDATE SKIP LOCKED; takeover once a lease expires)
 * and runs each task's current strategy against the attempt's own channel account, paced by the
 * policy's query QPS and bounded by its query concurrency (seed 001 sections 3, 4 and 8). The
 * claim's transaction has ended before any PSP call. Results go through {@link AttemptRecorder}, so
 * a late worker can never overwrite what a webhook or the response path recorded.
 */
public final class RecoveryWorker {

  /** How the worker claims. */
  public record Settings(String owner, int claimBatch, Duration lease) {}

  private final ChannelContext ctx;
  private final AttemptRecorder recorder;
  private final CreateExecutor executor;
  private final Settings settings;
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
    this.failures = failures;
  }

  /** One claim round, each task run on {@code pool}; returns how many tasks were claimed. */
  public int runOnce(ExecutorService pool) {
    List<RecoveryTask> claimed =
        ctx.store()
            .claimDue(
                settings.owner(), settings.claimBatch(), settings.lease(), ctx.clock().instant());
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

  /** Runs one claimed task. */
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
      ctx.store()
          .rescheduleTask(
              task,
              now.plus(rule.get().delayAfter(runs)),
              AttemptRecorder.strategyFor(rule.get(), runs).name(),
              "WAITING_" + strategy.name());
      return;
    }
    Semaphore slots =
        concurrency.computeIfAbsent(
            attempt.channelAccountId(), id -> new Semaphore(rule.get().queryConcurrency()));
    slots.acquireUninterruptibly();
    try {
      ctx.limiter().acquire(attempt.channelAccountId(), rule.get().queryQps());
      if (strategy == RecoveryStrategy.IDEMPOTENT_REPLAY) {
        executor.replay(attempt, family, task.policyVersion(), task.id(), runs);
      } else {
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
                rule.get(),
                task.policyVersion()));
      }
    } finally {
      slots.release();
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
    ctx.store()
        .record(
            new AttemptChange(
                attempt, attempt.status(), note, new TaskChange.Manual(reason), false, task.id()),
            now);
  }
}
