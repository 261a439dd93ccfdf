package dev.clearway.core.channel.engine;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.port.AttemptStore;
import dev.clearway.core.channel.port.CompensationStore;
import dev.clearway.core.channel.port.CompensationStore.Compensation;
import dev.clearway.core.channel.spi.AttemptRef;
import dev.clearway.core.channel.spi.PspAdapter;
import dev.clearway.core.channel.spi.RefundCall;
import dev.clearway.core.channel.spi.RefundOutcome;
import dev.clearway.core.flow.port.WorkerFailures;
import java.time.Duration;
import java.time.Instant;

/**
 * Refunds attempts charged although recorded FAILED (never rewrite the attempt; the money moved, so
 * give it back). Each compensation has a fixed refund number, so a retry never refunds twice; what
 * the PSP cannot settle automatically (ABNORMAL, CLOSED, rejected) goes to a person (status
 * MANUAL).
 *
 * <p>Compensations are claimed with a lease (the claim bumps their version): a worker writes only
 * with the version its claim returned, so one whose claim was taken over writes nothing, and a
 * refund the pacing cannot start before the lease ends is handed back instead of waited for.
 *
 * <p>Each compensation is isolated: one whose PSP call or recording throws is reported, put back
 * with a growing delay, and the round goes on with the next.
 */
public final class CompensationWorker {

  private static final Duration RETRY = Duration.ofSeconds(5);
  private static final Duration DEFAULT_LEASE = Duration.ofSeconds(30);
  private static final Duration MAX_FAILURE_DELAY = Duration.ofMinutes(10);

  /** The leased table, as counted in {@code leaseLost}. */
  private static final String TABLE = "attempt_compensation";

  private final ChannelContext ctx;
  private final CompensationStore compensations;
  private final AttemptStore attemptStore;
  private final Duration lease;
  private final WorkerFailures failures;

  public CompensationWorker(ChannelContext ctx) {
    this(ctx, DEFAULT_LEASE, WorkerFailures.systemLogger());
  }

  /** A worker whose claims hold each compensation for {@code lease}. */
  public CompensationWorker(ChannelContext ctx, Duration lease) {
    this(ctx, lease, WorkerFailures.systemLogger());
  }

  /**
   * @param failures told of every compensation that threw (loop {@code channel-compensation-item})
   */
  public CompensationWorker(ChannelContext ctx, WorkerFailures failures) {
    this(ctx, DEFAULT_LEASE, failures);
  }

  public CompensationWorker(ChannelContext ctx, Duration lease, WorkerFailures failures) {
    this.ctx = ctx;
    this.compensations = ctx.stores().compensations();
    this.attemptStore = ctx.stores().attempts();
    this.lease = lease;
    this.failures = failures;
  }

  /** The refund number of an attempt's compensation: fixed for the attempt. */
  public static String refundNo(Attempt attempt) {
    return "cmp" + ChannelGateway.padded36(attempt.id());
  }

  /** Runs every due compensation once; returns how many were settled (refunded or manual). */
  public int runOnce(int limit) {
    int settled = 0;
    Instant now = ctx.clock().instant();
    Instant leaseUntil = now.plus(lease);
    for (Compensation k : compensations.claimCompensations(limit, lease, now)) {
      try {
        if (settle(k, leaseUntil)) {
          settled++;
        }
      } catch (RuntimeException e) {
        failures.failed("channel-compensation-item", e);
        putBack(k, e);
      }
    }
    return settled;
  }

  private boolean settle(Compensation k, Instant leaseUntil) {
    Attempt attempt = attemptStore.attempt(k.attemptId()).orElseThrow();
    PspAdapter adapter = ctx.adapters().adapter(attempt.channelAccountId());
    if (!ctx.limiter()
        .acquireWithin(
            attempt.channelAccountId(), refundQps(attempt, adapter), leaseUntil, ctx.clock())) {
      Instant free = ctx.clock().instant().plus(ctx.limiter().backlog(attempt.channelAccountId()));
      write(k, "PENDING", PacedRateLimiter.PAST_LEASE, free);
      return false;
    }
    AttemptRef ref = attempt.ref();
    if (ref.providerPaymentId() == null) {
      // A FAILED attempt never learned the PSP's id: find the charge by its key first.
      String found = adapter.retrieve(ref).providerPaymentId();
      ref = new AttemptRef(ref.idempotencyKey(), ref.merchantReference(), found, ref.party());
    }
    RefundCall call =
        new RefundCall(k.refundNo(), ref, k.amount(), k.amount(), attempt.money().currency());
    RefundOutcome outcome = adapter.refund(call);
    Instant now = ctx.clock().instant();
    return switch (outcome.state()) {
      case SUCCEEDED -> write(k, "REFUNDED", null, now);
      case PROCESSING, UNKNOWN, NOT_FOUND -> {
        write(k, "PENDING", outcome.errorCode(), now.plus(RETRY));
        yield false;
      }
      case ABNORMAL, CLOSED, REJECTED ->
          write(k, "MANUAL", "REFUND_" + outcome.state().name(), now);
    };
  }

  /** The claimant's write, with the version its claim returned; a lost lease writes nothing. */
  private boolean write(Compensation k, String status, String error, Instant dueAt) {
    if (compensations.updateCompensation(k, status, error, dueAt, ctx.clock().instant())) {
      return true;
    }
    ctx.events().leaseLost(TABLE);
    return false;
  }

  /**
   * A compensation that threw stays PENDING, due again after {@link #failureDelay}. The same fixed
   * refund number is sent then, so a refund that went through before the failure is not repeated.
   * If even this write fails (the database is away, or the lease was lost), the row is due again
   * when its claim expires and the next round retries.
   */
  private void putBack(Compensation k, RuntimeException cause) {
    try {
      write(
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

  private int refundQps(Attempt attempt, PspAdapter adapter) {
    return RefundPacing.qps(ctx, attempt, adapter.channel());
  }
}
