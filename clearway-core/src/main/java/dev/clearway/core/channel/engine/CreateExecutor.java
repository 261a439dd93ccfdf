package dev.clearway.core.channel.engine;

import dev.clearway.core.channel.decision.CreateRequestHash;
import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.policy.Operation;
import dev.clearway.core.channel.policy.PolicyRule;
import dev.clearway.core.channel.port.PaymentDetailsStore;
import dev.clearway.core.channel.spi.CreatePayment;
import dev.clearway.core.channel.spi.PspOutcome;

/**
 * Sends the create of an attempt, first time or as a transport replay (same attempt, same key, same
 * parameters), and records the answer. Never inside a transaction. The caller holds the lease of
 * the attempt's recovery task ({@code taskLease}: the creation lease, a recovery worker's claim, a
 * hold taken for a replay); the answer is recorded only while it does.
 */
public final class CreateExecutor {

  /** Error code of a replay refused before it left the process. */
  public static final String REPLAY_MISMATCH = "REPLAY_REQUEST_MISMATCH";

  private final ChannelContext ctx;
  private final AttemptRecorder recorder;
  private final PaymentDetailsStore details;

  public CreateExecutor(ChannelContext ctx, AttemptRecorder recorder) {
    this(ctx, recorder, PaymentDetailsStore.NONE);
  }

  /** An executor that keeps the client action a create's answer carries in {@code details}. */
  public CreateExecutor(ChannelContext ctx, AttemptRecorder recorder, PaymentDetailsStore details) {
    this.ctx = ctx;
    this.recorder = recorder;
    this.details = details;
  }

  /** The create request of an attempt: the same value every time. */
  public static CreatePayment request(Attempt attempt) {
    return new CreatePayment(
        attempt.providerIdempotencyKey(),
        attempt.tradeOrderNo(),
        attempt.money().amount(),
        attempt.money().currency(),
        attempt.money().paymentMethod(),
        "order " + attempt.tradeOrderNo(),
        attempt.money().party());
  }

  /** The first create of a just-inserted attempt, under its creation lease. */
  public Attempt create(
      Attempt attempt, String methodFamily, String policyVersion, String taskLease) {
    PspOutcome outcome = send(attempt);
    ctx.health().onCreate(attempt.channelAccountId(), healthy(outcome));
    return recorder.record(
        AttemptRecorder.Observation.created(
            attempt,
            outcome,
            createRule(attempt, methodFamily, policyVersion),
            policyVersion,
            taskLease));
  }

  /**
   * A transport replay of an attempt whose result is not known, by the response path or a recovery
   * run ({@code taskId} and {@code runs} set), under the task lease the caller holds.
   */
  public Attempt replay(
      Attempt attempt,
      String methodFamily,
      String policyVersion,
      Long taskId,
      int runs,
      String taskLease) {
    PolicyRule rule = createRule(attempt, methodFamily, policyVersion);
    return replay(attempt, rule, policyVersion, taskId, runs, taskLease);
  }

  /**
   * A transport replay by a recovery run that has already looked up its {@code rule} (null when the
   * pinned version has none), under the run's claim.
   */
  public Attempt replay(
      Attempt attempt,
      PolicyRule rule,
      String policyVersion,
      Long taskId,
      int runs,
      String taskLease) {
    return recorder.record(
        AttemptRecorder.Observation.replayed(
            attempt, send(attempt), rule, policyVersion, taskId, runs, taskLease));
  }

  /** Sends the attempt's create request, unless it is not the very request first sent. */
  private PspOutcome send(Attempt attempt) {
    CreatePayment request = request(attempt);
    if (!CreateRequestHash.of(attempt.channelAccountId(), request)
        .equals(attempt.createRequestHash())) {
      // Refused before it leaves the process: a replay must be the very same operation.
      return PspOutcome.refusedUnexecuted(REPLAY_MISMATCH);
    }
    PspOutcome outcome = ctx.adapters().adapter(attempt.channelAccountId()).create(request);
    if (outcome.clientAction() != null) {
      // Before the answer is recorded: once the attempt reads as waiting for the customer, what
      // the customer's client needs is there to be read.
      details.saveAction(attempt.id(), outcome.clientAction(), ctx.clock().instant());
    }
    return outcome;
  }

  private PolicyRule createRule(Attempt attempt, String methodFamily, String policyVersion) {
    String channel = ctx.adapters().adapter(attempt.channelAccountId()).channel();
    return ctx.policies().rule(policyVersion, channel, methodFamily, Operation.CREATE).orElse(null);
  }

  /** Outages and unknown results count against the circuit; a declined card does not. */
  static boolean healthy(PspOutcome outcome) {
    return switch (outcome.certainty()) {
      case CONFIRMED_SUCCESS, PENDING -> true;
      case DEFINITE_FAILURE, NO_SIDE_EFFECT -> !outcome.failoverEligible();
      case UNKNOWN -> false;
    };
  }
}
