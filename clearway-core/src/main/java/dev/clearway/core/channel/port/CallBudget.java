package dev.clearway.core.channel.port;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * The calls per second one account (a PSP account, the plain wallet) may receive, paced: calls are
 * spaced at least 1/qps apart. The in-process implementation ({@code PacedRateLimiter}) paces one
 * node; a shared one (Redis) paces all nodes together. Correctness never depends on it; it only
 * protects the account.
 *
 * <p>A worker that holds a lease never waits past it: {@link #tryAcquire} refuses a slot that
 * starts later than the lease allows, without taking it, and the worker reschedules its step.
 */
public interface CallBudget {

  /** Blocks until a call to {@code accountId} is allowed at {@code qps} calls per second. */
  void acquire(long accountId, int qps);

  /**
   * Takes the next slot of {@code accountId} and waits for it, if it starts within {@code maxWait};
   * otherwise takes nothing and returns false at once. A zero {@code maxWait} takes only a slot
   * free now; a negative one (the lease is already over) takes none.
   */
  boolean tryAcquire(long accountId, int qps, Duration maxWait);

  /** How long until the next slot of {@code accountId} is free; zero when it is free now. */
  Duration backlog(long accountId);

  /**
   * As {@link #tryAcquire}, for a worker whose lease ends at {@code leaseUntil} on {@code clock}:
   * the slot must start before the lease ends. A null {@code leaseUntil} (the caller holds no
   * lease) waits as {@link #acquire}.
   */
  default boolean acquireWithin(long accountId, int qps, Instant leaseUntil, Clock clock) {
    if (leaseUntil == null) {
      acquire(accountId, qps);
      return true;
    }
    return tryAcquire(accountId, qps, Duration.between(clock.instant(), leaseUntil));
  }
}
