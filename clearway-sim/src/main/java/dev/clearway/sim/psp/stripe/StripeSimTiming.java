package dev.clearway.sim.psp.stripe;

import java.time.Duration;
import java.util.Objects;

/**
 * The time scale of a simulated Stripe account, compressible for tests.
 *
 * @param lostResponseHold how long a lost response (or a black hole) keeps the client waiting
 *     before the connection is dropped without an answer
 * @param asyncDelay how long a {@code processing} payment (token {@code pm_card_async}) or a {@code
 *     pending} refund takes to settle
 * @param executionDelay how long executing one create takes (the window in which a concurrent
 *     request with the same key gets 409 {@code idempotency_key_in_use})
 * @param searchLag how long a new payment intent stays invisible to search (Stripe search is
 *     eventually consistent)
 * @param webhookFirstBackoff wait before the second delivery attempt of a webhook; doubles after
 * @param webhookAttempts delivery attempts per webhook copy, the first included
 */
public record StripeSimTiming(
    Duration lostResponseHold,
    Duration asyncDelay,
    Duration executionDelay,
    Duration searchLag,
    Duration webhookFirstBackoff,
    int webhookAttempts) {

  public StripeSimTiming {
    requireNonNegative(lostResponseHold, "lostResponseHold");
    requireNonNegative(asyncDelay, "asyncDelay");
    requireNonNegative(executionDelay, "executionDelay");
    requireNonNegative(searchLag, "searchLag");
    requireNonNegative(webhookFirstBackoff, "webhookFirstBackoff");
    if (webhookAttempts < 1) {
      throw new IllegalArgumentException("webhookAttempts must be at least 1");
    }
  }

  /** Hold 1.5 s, settle after 2 s, no execution delay, no search lag, 1 s backoff, 5 attempts. */
  public static StripeSimTiming defaults() {
    return new StripeSimTiming(
        Duration.ofMillis(1_500),
        Duration.ofSeconds(2),
        Duration.ZERO,
        Duration.ZERO,
        Duration.ofSeconds(1),
        5);
  }

  /** Compressed for tests: hold 300 ms, settle after 200 ms, backoff 50 ms, 4 attempts. */
  public static StripeSimTiming fast() {
    return new StripeSimTiming(
        Duration.ofMillis(300),
        Duration.ofMillis(200),
        Duration.ZERO,
        Duration.ZERO,
        Duration.ofMillis(50),
        4);
  }

  public StripeSimTiming withExecutionDelay(Duration delay) {
    return new StripeSimTiming(
        lostResponseHold, asyncDelay, delay, searchLag, webhookFirstBackoff, webhookAttempts);
  }

  public StripeSimTiming withSearchLag(Duration lag) {
    return new StripeSimTiming(
        lostResponseHold, asyncDelay, executionDelay, lag, webhookFirstBackoff, webhookAttempts);
  }

  public StripeSimTiming withLostResponseHold(Duration hold) {
    return new StripeSimTiming(
        hold, asyncDelay, executionDelay, searchLag, webhookFirstBackoff, webhookAttempts);
  }

  private static void requireNonNegative(Duration d, String name) {
    Objects.requireNonNull(d, name);
    if (d.isNegative()) {
      throw new IllegalArgumentException(name + " must not be negative");
    }
  }
}
