package dev.clearway.core.channel.engine;

import dev.clearway.core.channel.decision.StatementVerdict;
import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.domain.PaymentOrder;
import dev.clearway.core.channel.domain.RecoveryTask;
import dev.clearway.core.channel.policy.Operation;
import dev.clearway.core.channel.policy.PolicyRule;
import dev.clearway.core.channel.policy.RecoveryStrategy;
import dev.clearway.core.channel.port.AttemptStore;
import dev.clearway.core.channel.port.PaymentOrderStore;
import dev.clearway.core.channel.port.RecoveryTaskStore;
import dev.clearway.core.channel.spi.PspAdapter;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.flow.port.WorkerFailures;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.runtime.TokenMint;
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
 * policy's query QPS and bounded by its query concurrency. The claim's transaction has ended before
 * any PSP call. Results go through {@link AttemptRecorder} under the claim's token, so a worker
 * whose lease was taken over writes nothing, and a late worker can never overwrite what a webhook
 * or the response path recorded. A task whose pacing slot or concurrency permit would come after
 * its lease ends is rescheduled instead of waiting.
 *
 * <p>With a {@link StatementRecovery}, the {@code RECONCILIATION} strategy settles an attempt from
 * the imported statements: a charge line for its amount records it SUCCEEDED, the statements'
 * silence once its days are imported and the settlement window has passed records it FAILED (both
 * with RECONCILIATION evidence), lines that disagree go to a person, and otherwise the task waits
 * the policy's delay. Without one, that strategy only waits, as WAIT_WEBHOOK does.
 */
public final class RecoveryWorker {

  /**
   * How the worker claims.
   *
   * @param owner the prefix of this worker's claim tokens (each claim gets a unique token)
   */
  public record Settings(String owner, int claimBatch, Duration lease) {}

  /** Error code of an attempt recorded FAILED because its statements show no charge. */
  public static final String NOT_ON_STATEMENT = "NOT_ON_STATEMENT";

  private final ChannelContext ctx;
  private final AttemptStore attemptStore;
  private final PaymentOrderStore orders;
  private final RecoveryTaskStore tasks;
  private final AttemptRecorder recorder;
  private final CreateExecutor executor;
  private final Settings settings;
  private final TokenMint tokens;
  private final Map<Long, Semaphore> concurrency = new ConcurrentHashMap<>();
  private final WorkerFailures failures;
  private final StatementRecovery statements;

  public RecoveryWorker(ChannelContext ctx, Settings settings) {
    this(ctx, settings, WorkerFailures.systemLogger());
  }

  /**
   * @param failures told of every task that threw (loop {@code channel-recovery-task})
   */
  public RecoveryWorker(ChannelContext ctx, Settings settings, WorkerFailures failures) {
    this(ctx, settings, failures, null);
  }

  /**
   * @param failures told of every task that threw (loop {@code channel-recovery-task})
   * @param statements what the imported statements say, for the RECONCILIATION strategy; null: that
   *     strategy only waits
   */
  public RecoveryWorker(
      ChannelContext ctx,
      Settings settings,
      WorkerFailures failures,
      StatementRecovery statements) {
    this.ctx = ctx;
    this.attemptStore = ctx.stores().attempts();
    this.orders = ctx.stores().orders();
    this.tasks = ctx.stores().tasks();
    this.recorder = new AttemptRecorder(ctx);
    this.executor = new CreateExecutor(ctx, recorder);
    this.settings = settings;
    this.tokens = new TokenMint(settings.owner());
    this.failures = failures;
    this.statements = statements;
  }

  /** One claim round, each task run on {@code pool}; returns how many tasks were claimed. */
  public int runOnce(ExecutorService pool) {
    List<RecoveryTask> claimed =
        tasks.claimDue(
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

  /**
   * Runs the task of one attempt if a claim round would claim it now (its wake-up arrived): claims
   * it with a lease of its own and runs it in this thread. False when there was nothing to claim
   * (not due yet, held by another worker, settled): a stale or duplicated wake-up changes nothing.
   */
  public boolean runOne(long attemptId) {
    Optional<RecoveryTask> claimed =
        tasks.claimTask(attemptId, tokens.next(), settings.lease(), ctx.clock().instant());
    claimed.ifPresent(this::run);
    return claimed.isPresent();
  }

  /**
   * Runs one claimed task, under the lease its claim returned ({@code task.leaseOwner()}). The
   * policy rule is looked up once, here, for the whole run; every write goes through the {@link
   * AttemptRecorder}.
   */
  public void run(RecoveryTask task) {
    Optional<Attempt> found = attemptStore.attempt(task.attemptId());
    if (found.isEmpty()) {
      return;
    }
    Attempt attempt = found.get();
    Instant now = ctx.clock().instant();
    if (attempt.isFinal()) {
      recorder.resolveFinished(attempt); // another path finished it first
      return;
    }
    PspAdapter adapter = ctx.adapters().adapter(attempt.channelAccountId());
    String family =
        orders.order(attempt.tradeOrderNo()).map(PaymentOrder::paymentMethod).orElse("");
    Optional<PolicyRule> rule =
        ctx.policies().rule(task.policyVersion(), adapter.channel(), family, Operation.CREATE);
    int runs = task.attemptCount(); // this run's number, 1-based after the claim
    if (rule.isEmpty() || !now.isBefore(attempt.createdAt().plus(rule.get().maxUnknownAge()))) {
      recorder.escalate(task, attempt, rule.isEmpty() ? "NO_POLICY_RULE" : "MAX_UNKNOWN_AGE", now);
      return;
    }
    RecoveryStrategy strategy = strategyOf(task, rule.get());
    if (strategy == RecoveryStrategy.RECONCILIATION
        && statements != null
        && strategy.supportedBy(adapter.capabilities())) {
      settleFromStatements(task, attempt, rule.get(), runs, now);
      return;
    }
    if (!strategy.callsPsp() || !strategy.supportedBy(adapter.capabilities())) {
      // WAIT_WEBHOOK / RECONCILIATION: no call; move on to the next strategy after the delay.
      recorder.handBack(
          task,
          now.plus(rule.get().delayAfter(runs)),
          AttemptRecorder.strategyFor(rule.get(), runs).name(),
          "WAITING_" + strategy.name());
      return;
    }
    callPsp(task, attempt, adapter, rule.get(), strategy);
  }

  /**
   * The RECONCILIATION strategy with imported statements: a charge line records SUCCEEDED, the
   * statements' silence FAILED (RECONCILIATION evidence, under the claim); lines that disagree go
   * to a person; otherwise the task waits the policy's delay.
   */
  private void settleFromStatements(
      RecoveryTask task, Attempt attempt, PolicyRule rule, int runs, Instant now) {
    Optional<String> account =
        ctx.stores().accounts().accounts().stream()
            .filter(a -> a.id() == attempt.channelAccountId())
            .map(ChannelAccount::accountRef)
            .findFirst();
    StatementVerdict verdict =
        account.isEmpty()
            ? new StatementVerdict.Wait("NO_CHANNEL_ACCOUNT")
            : statements.verdict(attempt, account.get(), now);
    if (verdict instanceof StatementVerdict.Charged charged) {
      StatementFact line = charged.line();
      PspOutcome outcome =
          PspOutcome.succeeded(line.pspReference())
              .withProviderStatus("STATEMENT")
              .withAmount(line.amountMinor());
      recorder.record(AttemptRecorder.Observation.reconciled(attempt, outcome, task, rule));
    } else if (verdict instanceof StatementVerdict.NotCharged) {
      PspOutcome outcome =
          PspOutcome.failedDefinitely(NOT_ON_STATEMENT).withProviderStatus("STATEMENT");
      recorder.record(AttemptRecorder.Observation.reconciled(attempt, outcome, task, rule));
    } else if (verdict instanceof StatementVerdict.ToPerson toPerson) {
      recorder.escalate(task, attempt, toPerson.reason(), now);
    } else if (verdict instanceof StatementVerdict.Wait wait) {
      recorder.handBack(
          task,
          now.plus(rule.delayAfter(runs)),
          AttemptRecorder.strategyFor(rule, runs).name(),
          "WAITING_" + wait.reason());
    }
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
      PolicyRule rule,
      RecoveryStrategy strategy) {
    long account = attempt.channelAccountId();
    Semaphore slots =
        concurrency.computeIfAbsent(account, id -> new Semaphore(rule.queryConcurrency()));
    if (!acquire(slots, task)) {
      handBack(task, ctx.clock().instant().plus(rule.delayAfter(0)));
      return;
    }
    try {
      if (!ctx.limiter().acquireWithin(account, rule.queryQps(), task.leaseUntil(), ctx.clock())) {
        handBack(task, ctx.clock().instant().plus(ctx.limiter().backlog(account)));
        return;
      }
      if (strategy == RecoveryStrategy.IDEMPOTENT_REPLAY) {
        executor.replay(
            attempt, rule, task.policyVersion(), task.id(), task.attemptCount(), task.leaseOwner());
        return;
      }
      PspOutcome outcome = adapter.retrieve(attempt.ref());
      recorder.record(AttemptRecorder.Observation.queried(attempt, outcome, strategy, task, rule));
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
  private void handBack(RecoveryTask task, Instant dueAt) {
    recorder.handBack(task, dueAt, task.strategy(), PacedRateLimiter.PAST_LEASE);
  }

  private static RecoveryStrategy strategyOf(RecoveryTask task, PolicyRule rule) {
    try {
      RecoveryStrategy named = RecoveryStrategy.valueOf(task.strategy());
      return rule.strategies().contains(named) ? named : AttemptRecorder.strategyFor(rule, 0);
    } catch (IllegalArgumentException e) {
      return AttemptRecorder.strategyFor(rule, 0);
    }
  }
}
