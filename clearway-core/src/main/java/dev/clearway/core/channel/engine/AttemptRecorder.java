package dev.clearway.core.channel.engine;

import dev.clearway.core.channel.decision.AttemptDecision;
import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.EvidenceSource;
import dev.clearway.core.channel.domain.ProviderEvidence;
import dev.clearway.core.channel.domain.RecoveryTask;
import dev.clearway.core.channel.policy.PolicyRule;
import dev.clearway.core.channel.policy.RecoveryStrategy;
import dev.clearway.core.channel.port.AttemptStore;
import dev.clearway.core.channel.port.AttemptStore.AttemptChange;
import dev.clearway.core.channel.port.AttemptStore.RecordResult;
import dev.clearway.core.channel.port.AttemptStore.TaskChange;
import dev.clearway.core.channel.port.CompensationStore;
import dev.clearway.core.channel.port.CompensationStore.Compensation;
import dev.clearway.core.channel.port.EvidenceStore;
import dev.clearway.core.channel.port.PaymentOrderStore;
import dev.clearway.core.channel.port.RecoveryTaskStore;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.ResultCertainty;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The one path by which any observer (the create's response, the recovery worker, a webhook)
 * records provider evidence: evidence → decision → CAS → history, evidence, outbox and task in one
 * transaction. A final attempt is never moved: new evidence about it is appended, and a charge
 * found on a FAILED attempt opens a compensation (refund), never a rewrite.
 *
 * <p>A worker records under the lease of the attempt's recovery task ({@code taskLease}); once that
 * lease is lost (it expired and the task was claimed by another worker) its record changes nothing
 * and is counted in {@link dev.clearway.core.channel.port.ChannelEvents#leaseLost}. Evidence about
 * an attempt that is already final is appended by anyone: it moves nothing.
 */
public final class AttemptRecorder {

  /** The leased table of attempts' writers, as counted in {@code leaseLost}. */
  static final String TASK_TABLE = "recovery_task";

  private final ChannelContext ctx;
  private final AttemptStore attemptStore;
  private final RecoveryTaskStore tasks;
  private final PaymentOrderStore orders;
  private final EvidenceStore evidenceStore;
  private final CompensationStore compensations;

  public AttemptRecorder(ChannelContext ctx) {
    this.ctx = ctx;
    this.attemptStore = ctx.stores().attempts();
    this.tasks = ctx.stores().tasks();
    this.orders = ctx.stores().orders();
    this.evidenceStore = ctx.stores().evidence();
    this.compensations = ctx.stores().compensations();
  }

  /**
   * One observation. {@code rule} may be null (no matching policy: the task goes MANUAL). {@code
   * taskLease} is the token under which the observer holds the attempt's recovery task, or null for
   * an observer that holds no lease (a webhook, a close ordered by the flow).
   */
  public record Observation(
      Attempt attempt,
      PspOutcome outcome,
      EvidenceSource source,
      String operation,
      boolean firstCreate,
      boolean replayed,
      Long taskId,
      int runs,
      PolicyRule rule,
      String policyVersion,
      String taskLease) {

    /** The answer to an attempt's first create, recorded under its creation lease. */
    public static Observation created(
        Attempt attempt,
        PspOutcome outcome,
        PolicyRule rule,
        String policyVersion,
        String taskLease) {
      return new Observation(
          attempt,
          outcome,
          EvidenceSource.RESPONSE,
          "CREATE",
          true,
          false,
          null,
          0,
          rule,
          policyVersion,
          taskLease);
    }

    /**
     * The answer to a transport replay, recorded under {@code taskLease}; {@code taskId} and {@code
     * runs} are the recovery run's (null and 0 for the flow's own replay).
     */
    public static Observation replayed(
        Attempt attempt,
        PspOutcome outcome,
        PolicyRule rule,
        String policyVersion,
        Long taskId,
        int runs,
        String taskLease) {
      return new Observation(
          attempt,
          outcome,
          EvidenceSource.RESPONSE,
          "REPLAY",
          false,
          true,
          taskId,
          runs,
          rule,
          policyVersion,
          taskLease);
    }

    /**
     * A recovery run's query by {@code strategy}, recorded under the run's claim of {@code task}.
     */
    public static Observation queried(
        Attempt attempt,
        PspOutcome outcome,
        RecoveryStrategy strategy,
        RecoveryTask task,
        PolicyRule rule) {
      return new Observation(
          attempt,
          outcome,
          EvidenceSource.QUERY,
          strategy.name(),
          false,
          false,
          task.id(),
          task.attemptCount(),
          rule,
          task.policyVersion(),
          task.leaseOwner());
    }

    /**
     * What the imported statements proved about the attempt (the {@code RECONCILIATION} strategy),
     * recorded under the recovery run's claim of {@code task}.
     */
    public static Observation reconciled(
        Attempt attempt, PspOutcome outcome, RecoveryTask task, PolicyRule rule) {
      return new Observation(
          attempt,
          outcome,
          EvidenceSource.RECONCILIATION,
          RecoveryStrategy.RECONCILIATION.name(),
          false,
          false,
          task.id(),
          task.attemptCount(),
          rule,
          task.policyVersion(),
          task.leaseOwner());
    }

    /**
     * What an observer that holds no lease saw (a webhook, a close ordered by the flow, a
     * settlement report): fenced by the attempt's version alone.
     */
    public static Observation observed(
        Attempt attempt,
        PspOutcome outcome,
        EvidenceSource source,
        String operation,
        PolicyRule rule,
        String policyVersion) {
      return new Observation(
          attempt, outcome, source, operation, false, false, null, 0, rule, policyVersion, null);
    }
  }

  /** Records the observation; the attempt as stored afterwards (re-read on a lost race). */
  public Attempt record(Observation o) {
    Instant now = ctx.clock().instant();
    Attempt attempt = o.attempt();
    ProviderEvidence evidence =
        new ProviderEvidence(o.source(), o.operation(), o.outcome(), o.policyVersion(), now);
    ctx.events().pspAnswer(attempt.channelAccountId(), o.operation(), o.outcome().certainty());
    if (attempt.isFinal()) {
      onFinalAttempt(attempt, evidence, o.taskId(), now);
      return attempt;
    }
    boolean contradicts = AttemptDecision.amountContradicts(attempt, o.outcome());
    AttemptStatus to =
        contradicts
            ? (attempt.status() == AttemptStatus.PENDING
                ? AttemptStatus.PENDING
                : AttemptStatus.UNKNOWN)
            : AttemptDecision.next(attempt, o.outcome(), o.source(), o.firstCreate());
    PspOutcome stored =
        contradicts
            ? o.outcome().withError(AttemptDecision.AMOUNT_MISMATCH)
            : AttemptDecision.stored(o.outcome(), to, o.source());
    ProviderEvidence storedEvidence =
        new ProviderEvidence(o.source(), o.operation(), stored, o.policyVersion(), now);
    TaskChange task =
        contradicts
            ? new TaskChange.Manual(AttemptDecision.AMOUNT_MISMATCH)
            : to.isFinal() ? new TaskChange.Resolve() : nextRun(o, attempt, stored, now);
    AttemptChange change =
        AttemptChange.of(attempt, to, storedEvidence, task).heldBy(o.taskId(), o.taskLease());
    RecordResult result = attemptStore.record(o.replayed() ? change.asReplay() : change, now);
    if (result == RecordResult.LEASE_LOST) {
      // Race: this worker's lease expired and the task was claimed by another, which now asks the
      // PSP itself. Nothing was written; the holder's record decides.
      ctx.events().leaseLost(TASK_TABLE);
      return attemptStore.attempt(attempt.id()).orElseThrow();
    }
    if (result == RecordResult.LOST) {
      ctx.events().concurrentlyResolved();
      Attempt current = attemptStore.attempt(attempt.id()).orElseThrow();
      if (current.isFinal()) {
        // Whoever made it final may have found the task leased by us: resolve it.
        tasks.resolveTask(current.id(), now);
        onFinalAttempt(current, evidence, o.taskId(), now);
      }
      return current;
    }
    ctx.events().attemptMoved(attempt, to);
    if (task instanceof TaskChange.Reschedule r) {
      ctx.taskWakeups().schedule(attempt.id(), r.dueAt());
    }
    if (to.isFinal()) {
      ctx.onAttemptFinal().accept(attempt.tradeOrderNo());
    }
    return attemptStore.attempt(attempt.id()).orElseThrow();
  }

  private TaskChange nextRun(Observation o, Attempt attempt, PspOutcome outcome, Instant now) {
    PolicyRule rule = o.rule();
    if (rule == null) {
      return new TaskChange.Manual("NO_POLICY_RULE");
    }
    if (!now.isBefore(attempt.createdAt().plus(rule.maxUnknownAge()))) {
      return new TaskChange.Manual("MAX_UNKNOWN_AGE");
    }
    Duration delay = rule.delayAfter(Math.max(0, o.runs()));
    return new TaskChange.Reschedule(
        now.plus(delay), strategyFor(rule, o.runs()).name(), outcome.errorCode());
  }

  /**
   * Hands a claimed task back without touching its attempt (a strategy that waits, or a call that
   * would not fit in the lease), due at {@code dueAt}; the claim's version fences it, so a worker
   * whose lease was taken over writes nothing.
   */
  public void handBack(RecoveryTask claimed, Instant dueAt, String strategy, String lastError) {
    if (!tasks.rescheduleTask(claimed, dueAt, strategy, lastError, ctx.clock().instant())) {
      ctx.events().leaseLost(TASK_TABLE);
      return;
    }
    ctx.taskWakeups().schedule(claimed.attemptId(), dueAt);
  }

  /**
   * Hands a claimed task to a person ({@code reason}: no policy rule, or past the rule's maximum
   * unknown age): a MANUAL note is recorded with the attempt left as it is, under the claim.
   */
  public void escalate(RecoveryTask claimed, Attempt attempt, String reason, Instant now) {
    ProviderEvidence note =
        new ProviderEvidence(
            EvidenceSource.MANUAL,
            "ESCALATE",
            PspOutcome.unknown(reason),
            claimed.policyVersion(),
            now);
    AttemptChange change =
        AttemptChange.of(attempt, attempt.status(), note, new TaskChange.Manual(reason))
            .heldBy(claimed.id(), claimed.leaseOwner());
    if (attemptStore.record(change, now) == RecordResult.LEASE_LOST) {
      ctx.events().leaseLost(TASK_TABLE);
    }
  }

  /** Resolves the task of an attempt another path has already made final. */
  public void resolveFinished(Attempt attempt) {
    tasks.resolveTask(attempt.id(), ctx.clock().instant());
  }

  /**
   * The CREATE rule of a pinned policy version for an attempt (by its account's channel and its
   * order's payment method family), or null when the version has none.
   */
  public PolicyRule createRule(Attempt attempt, String policyVersion) {
    String channel = ctx.adapters().adapter(attempt.channelAccountId()).channel();
    String family =
        orders
            .order(attempt.tradeOrderNo())
            .map(dev.clearway.core.channel.domain.PaymentOrder::paymentMethod)
            .orElse("");
    return ctx.policies()
        .rule(policyVersion, channel, family, dev.clearway.core.channel.policy.Operation.CREATE)
        .orElse(null);
  }

  /** The strategy of run number {@code runs} (0-based): the rule's strategies in turn. */
  public static RecoveryStrategy strategyFor(PolicyRule rule, int runs) {
    List<RecoveryStrategy> strategies = rule.strategies();
    return strategies.get(Math.floorMod(runs, strategies.size()));
  }

  private void onFinalAttempt(Attempt attempt, ProviderEvidence evidence, Long taskId, Instant n) {
    evidenceStore.appendEvidence(attempt.id(), taskId, evidence);
    tasks.resolveTask(attempt.id(), n);
    boolean chargedAfterFailure =
        attempt.status() == AttemptStatus.FAILED
            && evidence.outcome().certainty() == ResultCertainty.CONFIRMED_SUCCESS;
    if (chargedAfterFailure) {
      // The money moved although we recorded a definite failure (a late success, a PSP that
      // lied): the attempt stays FAILED in history and its charge is refunded.
      boolean opened =
          compensations.openCompensation(
              Compensation.opening(
                  attempt.id(),
                  attempt.tradeOrderNo(),
                  CompensationWorker.refundNo(attempt),
                  // What was taken: the PSP's amount when it reported one.
                  evidence.outcome().amount() != null
                      ? evidence.outcome().amount()
                      : attempt.money().amount(),
                  "CHARGED_AFTER_FAILURE"),
              n);
      if (opened) {
        ctx.events().multipleSuccess(attempt.tradeOrderNo());
      }
    }
  }
}
