package dev.clearway.core.channel.engine;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.port.ChannelStore.Compensation;
import dev.clearway.core.channel.spi.AttemptRef;
import dev.clearway.core.channel.spi.PspAdapter;
import dev.clearway.core.channel.spi.RefundCall;
import dev.clearway.core.channel.spi.RefundOutcome;
import dev.clearway.core.port.WorkerFailures;
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

  private static final Duration MAX_FAILURE_DELAY = Duration.ofMinutes(10);

  private final ChannelContext ctx;
  private final WorkerFailures failures;

  public CompensationWorker(ChannelContext ctx) {
    this(ctx, WorkerFailures.systemLogger());
  }

  /**
   * @param failures told of every compensation that threw (loop {@code channel-compensation-item})
   */
  public CompensationWorker(ChannelContext ctx, WorkerFailures failures) {
    this.ctx = ctx;
    this.failures = failures;
  }

  /** The refund number of an attempt's compensation: fixed for the attempt. */
  public static String refundNo(Attempt attempt) {
    return "cmp" + ChannelGateway.padded36(attempt.id());
  }

  /**
   * Runs every due compensation once; returns how many were settled (refunded or manual). Each
   * compensation is isolated: one whose PSP call or recording throws is reported, put back with a
   * growing delay, and the round goes on with the next.
   */
  public int runOnce(int limit) {
    int settled = 0;
    Instant now = ctx.clock().instant();
    for (Compensation k : ctx.store().dueCompensations(limit, now)) {
      try {
        if (settle(k, now)) {
          settled++;
        }
      } catch (RuntimeException e) {
        failures.failed("channel-compensation-item", e);
        putBack(k, e);
      }
    }
    return settled;
  }

  private boolean settle(Compensation k, Instant now) {
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
    return switch (outcome.state()) {
      case SUCCEEDED -> ctx.store().updateCompensation(k, "REFUNDED", null, now);
      case PROCESSING, UNKNOWN, NOT_FOUND -> {
        ctx.store().updateCompensation(k, "PENDING", outcome.errorCode(), later);
        yield false;
      }
      case ABNORMAL, CLOSED, REJECTED ->
          ctx.store().updateCompensation(k, "MANUAL", "REFUND_" + outcome.state().name(), now);
    };
  }

  /**
   * A compensation that threw stays PENDING, due again after {@link #failureDelay}. The same fixed
   * refund number is sent then, so a refund that went through before the failure is not repeated.
   * If even this write fails (the database is away), the row stays due and the next round retries.
   */
  private void putBack(Compensation k, RuntimeException cause) {
    try {
      ctx.store()
          .updateCompensation(
              k,
              "PENDING",
              "FAILED_" + cause.getClass().getSimpleName(),
              ctx.clock().instant().plus(failureDelay(k.tries())));
    } catch (RuntimeException e) {
      failures.failed("channel-compensation-item", e);
    }
  }

  /** 5 s doubled per earlier try, at most 10 minutes. */
  public static Duration failureDelay(int tries) {
    Duration delay = RETRY.multipliedBy(1L << Math.min(Math.max(tries, 0), 7));
    return delay.compareTo(MAX_FAILURE_DELAY) > 0 ? MAX_FAILURE_DELAY : delay;
  }
}
