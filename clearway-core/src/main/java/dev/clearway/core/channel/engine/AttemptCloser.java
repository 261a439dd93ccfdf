package dev.clearway.core.channel.engine;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.EvidenceSource;
import dev.clearway.core.channel.spi.PspAdapter;
import dev.clearway.core.channel.spi.PspOutcome;

/**
 * Closes a live attempt at its PSP so it can never charge (the flow gave up: cancel, unpaid
 * timeout, deadline). The answer is recorded like any other evidence: closed → FAILED (not
 * failover-eligible), paid after all → SUCCEEDED, anything else keeps the attempt as it was.
 */
final class AttemptCloser {

  private static final int CLOSE_QPS = 20;

  private final ChannelContext ctx;
  private final AttemptRecorder recorder;

  AttemptCloser(ChannelContext ctx) {
    this.ctx = ctx;
    this.recorder = new AttemptRecorder(ctx);
  }

  Attempt close(Attempt live, String policyVersion) {
    PspAdapter adapter = ctx.adapters().adapter(live.channelAccountId());
    // A fund operation on the original account: never gated by the circuit, always paced.
    ctx.limiter().acquire(live.channelAccountId(), CLOSE_QPS);
    PspOutcome outcome = adapter.close(live.ref());
    PspOutcome notEligible =
        new PspOutcome(
            outcome.certainty(),
            outcome.providerStatus(),
            outcome.providerPaymentId(),
            outcome.errorCode(),
            false,
            false,
            outcome.requestId(),
            outcome.rawHash());
    return recorder.record(
        new AttemptRecorder.Observation(
            live,
            notEligible,
            EvidenceSource.RESPONSE,
            "CLOSE",
            false,
            false,
            null,
            0,
            recorder.createRule(live, policyVersion),
            policyVersion));
  }
}
