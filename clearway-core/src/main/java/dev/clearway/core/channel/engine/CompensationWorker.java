package dev.clearway.core.channel.engine;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.port.ChannelStore.Compensation;
import dev.clearway.core.channel.spi.AttemptRef;
import dev.clearway.core.channel.spi.PspAdapter;
import dev.clearway.core.channel.spi.RefundCall;
import dev.clearway.core.channel.spi.RefundOutcome;
import java.time.Duration;
import java.time.Instant;

/**
 * Refunds attempts charged although recorded FAILED (seed 001 section 7: never rewrite the attempt;
 * the money moved, so give it back). Each compensation has a fixed refund number, so a retry never
 * refunds twice; what the PSP cannot settle automatically (ABNORMAL, CLOSED, rejected) goes to a
 * person (status MANUAL).
 */
public final class CompensationWorker {

  private static final int REFUND_QPS = 20;
  private static final Duration RETRY = Duration.ofSeconds(5);

  private final ChannelContext ctx;

  public CompensationWorker(ChannelContext ctx) {
    this.ctx = ctx;
  }

  /** The refund number of an attempt's compensation: fixed for the attempt. */
  public static String refundNo(Attempt attempt) {
    return "cmp" + ChannelGateway.padded36(attempt.id());
  }

  /** Runs every due compensation once; returns how many were settled (refunded or manual). */
  public int runOnce(int limit) {
    int settled = 0;
    Instant now = ctx.clock().instant();
    for (Compensation k : ctx.store().dueCompensations(limit, now)) {
      Attempt attempt = ctx.store().attempt(k.attemptId()).orElseThrow();
      PspAdapter adapter = ctx.adapters().adapter(attempt.channelAccountId());
      ctx.limiter().acquire(attempt.channelAccountId(), REFUND_QPS);
      AttemptRef ref = attempt.ref();
      if (ref.providerPaymentId() == null) {
        // A FAILED attempt never learned the PSP's id: find the charge by its key first.
        String found = adapter.retrieve(ref).providerPaymentId();
        ref = new AttemptRef(ref.idempotencyKey(), ref.merchantReference(), found);
      }
      RefundCall call =
          new RefundCall(k.refundNo(), ref, k.amount(), k.amount(), attempt.money().currency());
      RefundOutcome outcome = adapter.refund(call);
      Instant later = ctx.clock().instant().plus(RETRY);
      boolean done =
          switch (outcome.state()) {
            case SUCCEEDED -> ctx.store().updateCompensation(k, "REFUNDED", null, now);
            case PROCESSING, UNKNOWN, NOT_FOUND -> {
              ctx.store().updateCompensation(k, "PENDING", outcome.errorCode(), later);
              yield false;
            }
            case ABNORMAL, CLOSED, REJECTED ->
                ctx.store()
                    .updateCompensation(k, "MANUAL", "REFUND_" + outcome.state().name(), now);
          };
      if (done) {
        settled++;
      }
    }
    return settled;
  }
}
