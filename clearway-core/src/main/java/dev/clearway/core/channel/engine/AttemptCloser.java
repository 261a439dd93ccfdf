package dev.clearway.core.channel.engine;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.EvidenceSource;
import dev.clearway.core.channel.spi.PspAdapter;
import dev.clearway.core.channel.spi.PspOutcome;
import java.time.Instant;

/**
 * Closes a live attempt at its PSP so it can never charge (the flow gave up: cancel, unpaid
 * timeout, deadline). The answer is recorded like any other evidence: closed → FAILED (not
 * failover-eligible), paid after all → SUCCEEDED, anything else keeps the attempt as it was. A
 * close is an order from the flow above, not a recovery step: it holds no task lease and is
 * recorded, like a webhook, only against the attempt version it read.
 */
final class AttemptCloser {

  private static final int CLOSE_QPS = 20;

  private final ChannelContext ctx;
  private final AttemptRecorder recorder;

  AttemptCloser(ChannelContext ctx) {
    this.ctx = ctx;
    this.recorder = new AttemptRecorder(ctx);
  }

  /**
   * Closes {@code live}. {@code leaseUntil} is when the calling worker's own lease ends (a request
   * thread passes now: it takes a slot free now or none, and never waits); a close the pacing
   * cannot fit before it is not sent, and the attempt is returned as it was.
   */
  Attempt close(Attempt live, String policyVersion, Instant leaseUntil) {
    PspAdapter adapter = ctx.adapters().adapter(live.channelAccountId());
    // A fund operation on the original account: never gated by the circuit, always paced.
    if (!ctx.limiter().acquireWithin(live.channelAccountId(), CLOSE_QPS, leaseUntil, ctx.clock())) {
      return live;
    }
    PspOutcome outcome = adapter.close(live.ref());
    PspOutcome notEligible =
        // A close is recorded without a charged amount, as it always was.
        outcome.withoutFailover().withoutCustomerAction().withAmount(null);
    return recorder.record(
        AttemptRecorder.Observation.observed(
            live,
            notEligible,
            EvidenceSource.RESPONSE,
            "CLOSE",
            recorder.createRule(live, policyVersion),
            policyVersion));
  }
}
