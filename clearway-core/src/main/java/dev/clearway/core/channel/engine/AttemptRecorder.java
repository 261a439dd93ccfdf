package dev.clearway.core.channel.engine;

import dev.clearway.core.channel.decision.AttemptDecision;
import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.EvidenceSource;
import dev.clearway.core.channel.domain.ProviderEvidence;
import dev.clearway.core.channel.policy.PolicyRule;
import dev.clearway.core.channel.policy.RecoveryStrategy;
import dev.clearway.core.channel.port.ChannelStore.AttemptChange;
import dev.clearway.core.channel.port.ChannelStore.Compensation;
import dev.clearway.core.channel.port.ChannelStore.RecordResult;
import dev.clearway.core.channel.port.ChannelStore.TaskChange;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.ResultCertainty;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The one path by which any observer (the create's response, the recovery worker, a webhook)
 * records provider evidence (seed 001 section 5): evidence → decision → CAS → history, evidence,
 * outbox and task in one transaction. A final attempt is never moved: new evidence about it is
 * appended, and a charge found on a FAILED attempt opens a compensation (refund), never a rewrite.
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

  public AttemptRecorder(ChannelContext ctx) {
    this.ctx = ctx;
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
      String taskLease) {}

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
            ? withError(o.outcome(), AttemptDecision.AMOUNT_MISMATCH)
            : AttemptDecision.stored(o.outcome(), to, o.source());
    ProviderEvidence storedEvidence =
        new ProviderEvidence(o.source(), o.operation(), stored, o.policyVersion(), now);
    TaskChange task =
        contradicts
            ? new TaskChange.Manual(AttemptDecision.AMOUNT_MISMATCH)
            : to.isFinal() ? new TaskChange.Resolve() : nextRun(o, attempt, stored, now);
    RecordResult result =
        ctx.store()
            .record(
                new AttemptChange(
                    attempt, to, storedEvidence, task, o.replayed(), o.taskId(), o.taskLease()),
                now);
    if (result == RecordResult.LEASE_LOST) {
      // Race: this worker's lease expired and the task was claimed by another, which now asks the
      // PSP itself. Nothing was written; the holder's record decides.
      ctx.events().leaseLost(TASK_TABLE);
      return ctx.store().attempt(attempt.id()).orElseThrow();
    }
    if (result == RecordResult.LOST) {
      ctx.events().concurrentlyResolved();
      Attempt current = ctx.store().attempt(attempt.id()).orElseThrow();
      if (current.isFinal()) {
        // Whoever made it final may have found the task leased by us: resolve it.
        ctx.store().resolveTask(current.id(), now);
        onFinalAttempt(current, evidence, o.taskId(), now);
      }
      return current;
    }
    ctx.events().attemptMoved(attempt, to);
    if (to.isFinal()) {
      ctx.onAttemptFinal().accept(attempt.tradeOrderNo());
    }
    return ctx.store().attempt(attempt.id()).orElseThrow();
  }

  private static PspOutcome withError(PspOutcome o, String code) {
    return new PspOutcome(
        o.certainty(),
        o.providerStatus(),
        o.providerPaymentId(),
        code,
        false,
        o.customerActionPending(),
        o.requestId(),
        o.rawHash(),
        o.amount());
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
   * The CREATE rule of a pinned policy version for an attempt (by its account's channel and its
   * order's payment method family), or null when the version has none.
   */
  public PolicyRule createRule(Attempt attempt, String policyVersion) {
    String channel = ctx.adapters().adapter(attempt.channelAccountId()).channel();
    String family =
        ctx.store()
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
    ctx.store().appendEvidence(attempt.id(), taskId, evidence);
    ctx.store().resolveTask(attempt.id(), n);
    boolean chargedAfterFailure =
        attempt.status() == AttemptStatus.FAILED
            && evidence.outcome().certainty() == ResultCertainty.CONFIRMED_SUCCESS;
    if (chargedAfterFailure) {
      // The money moved although we recorded a definite failure (a late success, a PSP that
      // lied): the attempt stays FAILED in history and its charge is refunded (seed 001 s. 7).
      boolean opened =
          ctx.store()
              .openCompensation(
                  new Compensation(
                      attempt.id(),
                      attempt.tradeOrderNo(),
                      CompensationWorker.refundNo(attempt),
                      // What was taken: the PSP's amount when it reported one.
                      evidence.outcome().amount() != null
                          ? evidence.outcome().amount()
                          : attempt.money().amount(),
                      "PENDING",
                      "CHARGED_AFTER_FAILURE",
                      0,
                      0),
                  n);
      if (opened) {
        ctx.events().multipleSuccess(attempt.tradeOrderNo());
      }
    }
  }
}
