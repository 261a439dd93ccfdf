package dev.clearway.sim.psp;

import dev.clearway.sim.FaultPlan;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The faults a simulated PSP injects, chosen deterministically from a seed per (operation, key) so
 * a run replays. Mutable at run time so a scenario can start and end an outage.
 *
 * <p>The meaning of every fault is fixed here; each PSP mode renders it in its own protocol:
 *
 * <ul>
 *   <li>{@link Outage#UNAVAILABLE}: every create is refused with the protocol's documented "not
 *       accepted" error ({@code channel_unavailable}); nothing executes. Queries still work unless
 *       {@link Outage#BLACKHOLE}.
 *   <li>{@link Outage#BLACKHOLE}: every request (create, query, refund) is held, maybe executed
 *       (creates execute with probability one half, from the seed) and the connection dropped.
 *   <li>{@code lostResponseRate}: the request executes, then the connection is dropped unanswered.
 *   <li>{@code error500Rate}: a create answers 500 without executing (Stripe stores and replays
 *       it).
 *   <li>{@code lieRate}: a create answers a definite, failover-eligible failure but the charge does
 *       happen. Only used to show that two charged attempts are detected and refunded.
 *   <li>{@code webhookDuplicateRate}, {@code webhookDelayMaxMillis}: webhooks are sent twice and
 *       out of order.
 * </ul>
 */
public final class PspFaults {

  public enum Outage {
    NONE,
    UNAVAILABLE,
    BLACKHOLE
  }

  private final long seed;
  private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
  private volatile Outage outage = Outage.NONE;
  private volatile double lostResponseRate;
  private volatile double error500Rate;
  private volatile double lieRate;
  private volatile double webhookDuplicateRate;
  private volatile long webhookDelayMaxMillis;

  public PspFaults(long seed) {
    this.seed = seed;
  }

  public static PspFaults none() {
    return new PspFaults(0);
  }

  public long seed() {
    return seed;
  }

  public Outage outage() {
    return outage;
  }

  public PspFaults outage(Outage outage) {
    this.outage = Objects.requireNonNull(outage, "outage");
    return this;
  }

  public PspFaults lostResponseRate(double rate) {
    this.lostResponseRate = check(rate);
    return this;
  }

  public PspFaults error500Rate(double rate) {
    this.error500Rate = check(rate);
    return this;
  }

  public PspFaults lieRate(double rate) {
    this.lieRate = check(rate);
    return this;
  }

  public PspFaults webhookDuplicateRate(double rate) {
    this.webhookDuplicateRate = check(rate);
    return this;
  }

  public PspFaults webhookDelayMaxMillis(long millis) {
    if (millis < 0) {
      throw new IllegalArgumentException("delay must not be negative");
    }
    this.webhookDelayMaxMillis = millis;
    return this;
  }

  public long webhookDelayMaxMillis() {
    return webhookDelayMaxMillis;
  }

  /**
   * Whether the response to {@code operation} on {@code key} is lost after executing. Each repeat
   * of the same operation on the same key rolls again (the n-th call is keyed {@code key#n}), so a
   * retry can get through, and the sequence still replays from the seed.
   */
  public boolean loseResponse(String operation, String key) {
    int n =
        calls
            .computeIfAbsent(operation + '\u0000' + key, k -> new AtomicInteger())
            .getAndIncrement();
    return roll("lost:" + operation, n == 0 ? key : key + "#" + n, lostResponseRate);
  }

  public boolean error500(String key) {
    return roll("e500", key, error500Rate);
  }

  public boolean lie(String key) {
    return roll("lie", key, lieRate);
  }

  public boolean duplicateWebhook(String key) {
    return roll("dupwh", key, webhookDuplicateRate);
  }

  /** The delay of a webhook about {@code key}, in [0, webhookDelayMaxMillis]. */
  public long webhookDelayMillis(String key, int copy) {
    long max = webhookDelayMaxMillis;
    return max == 0 ? 0 : (long) (new FaultPlan(seed, 1).unit("whdelay", key, copy) * (max + 1));
  }

  /** In a black-hole outage: whether the held create executes before the connection drops. */
  public boolean blackholeExecutes(String key) {
    return new FaultPlan(seed, 1).unit("blackhole", key, 0) < 0.5;
  }

  private boolean roll(String dimension, String key, double rate) {
    return rate > 0 && new FaultPlan(seed, 1).unit(dimension, key, 0) < rate;
  }

  private static double check(double rate) {
    if (rate < 0 || rate > 1) {
      throw new IllegalArgumentException("rate must be within [0, 1]");
    }
    return rate;
  }
}
