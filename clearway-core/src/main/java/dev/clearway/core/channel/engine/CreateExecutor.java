package dev.clearway.core.channel.engine;

import dev.clearway.core.channel.decision.CreateRequestHash;
import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.EvidenceSource;
import dev.clearway.core.channel.policy.Operation;
import dev.clearway.core.channel.policy.PolicyRule;
import dev.clearway.core.channel.spi.CreatePayment;
import dev.clearway.core.channel.spi.PspAdapter;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.ResultCertainty;

/**
 * Sends the create of an attempt, first time or as a transport replay (seed 001 section 2: same
 * attempt, same key, same parameters), and records the answer. Never inside a transaction. The
 * caller holds the lease of the attempt's recovery task ({@code taskLease}: the creation lease, a
 * recovery worker's claim, a hold taken for a replay); the answer is recorded only while it does.
 */
public final class CreateExecutor {

  /** Error code of a replay refused before it left the process. */
  public static final String REPLAY_MISMATCH = "REPLAY_REQUEST_MISMATCH";

  private final ChannelContext ctx;
  private final AttemptRecorder recorder;

  public CreateExecutor(ChannelContext ctx, AttemptRecorder recorder) {
    this.ctx = ctx;
    this.recorder = recorder;
  }

  /** The create request of an attempt: the same value every time. */
  public static CreatePayment request(Attempt attempt) {
    return new CreatePayment(
        attempt.providerIdempotencyKey(),
        attempt.tradeOrderNo(),
        attempt.money().amount(),
        attempt.money().currency(),
        attempt.money().paymentMethod(),
        "order " + attempt.tradeOrderNo());
  }

  /** The first create of a just-inserted attempt, under its creation lease. */
  public Attempt create(
      Attempt attempt, String methodFamily, String policyVersion, String taskLease) {
    return send(attempt, methodFamily, policyVersion, false, null, 0, taskLease);
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
    return send(attempt, methodFamily, policyVersion, true, taskId, runs, taskLease);
  }

  private Attempt send(
      Attempt attempt,
      String methodFamily,
      String policyVersion,
      boolean replay,
      Long taskId,
      int runs,
      String taskLease) {
    PspAdapter adapter = ctx.adapters().adapter(attempt.channelAccountId());
    CreatePayment request = request(attempt);
    PspOutcome outcome;
    if (!CreateRequestHash.of(attempt.channelAccountId(), request)
        .equals(attempt.createRequestHash())) {
      // Refused before it leaves the process: a replay must be the very same operation.
      outcome =
          new PspOutcome(
              ResultCertainty.NO_SIDE_EFFECT,
              null,
              null,
              REPLAY_MISMATCH,
              false,
              false,
              null,
              null);
    } else {
      outcome = adapter.create(request);
    }
    if (!replay) {
      ctx.health().onCreate(attempt.channelAccountId(), healthy(outcome));
    }
    PolicyRule rule =
        ctx.policies()
            .rule(policyVersion, adapter.channel(), methodFamily, Operation.CREATE)
            .orElse(null);
    return recorder.record(
        new AttemptRecorder.Observation(
            attempt,
            outcome,
            EvidenceSource.RESPONSE,
            replay ? "REPLAY" : "CREATE",
            !replay,
            replay,
            taskId,
            runs,
            rule,
            policyVersion,
            taskLease));
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
