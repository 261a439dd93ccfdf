package dev.clearway.redis;

import dev.clearway.core.channel.engine.PacedRateLimiter;
import dev.clearway.core.channel.port.CallBudget;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * {@link CallBudget} shared by every node through Redis: one key per account holds the start of the
 * account's next free slot, on Redis's own clock; a Lua script takes the next slot and moves the
 * key on by 1/qps, atomically, so the calls of all nodes together are spaced at least 1/qps apart.
 * The node then waits until its slot starts.
 *
 * <p>When Redis is unreachable each node paces on its own at its configured share of the budget
 * ({@code qps / nodes}, at least one call per second), so the cluster together still stays within
 * the budget; the fallbacks are counted in {@link RedisLink#fallbacks}. A Redis that is only slow
 * (a command timed out, the link still usable) is asked again: pacing at the node's own share then
 * would add that share to what the other nodes take through Redis.
 */
public final class RedisCallBudget implements CallBudget {

  /**
   * KEYS[1] the account's next free slot (microseconds on Redis's clock); ARGV[1] the interval,
   * ARGV[2] the longest wait accepted (microseconds, negative: none). Answers the wait for the slot
   * taken, or -1 - wait when the slot starts too late (nothing is taken).
   */
  private static final String TAKE =
      "local t = redis.call('TIME')\n"
          + "local now = tonumber(t[1]) * 1000000 + tonumber(t[2])\n"
          + "local free = tonumber(redis.call('GET', KEYS[1]) or '0')\n"
          + "local mine = math.max(now, free)\n"
          + "local maxWait = tonumber(ARGV[2])\n"
          + "if maxWait < 0 or mine - now > maxWait then return -1 - (mine - now) end\n"
          + "local nextFree = mine + tonumber(ARGV[1])\n"
          + "redis.call('SET', KEYS[1], string.format('%.0f', nextFree),"
          + " 'PX', math.floor((nextFree - now) / 1000) + 1000)\n"
          + "return mine - now\n";

  /** KEYS[1] as above: how long until the next slot is free (microseconds, zero when now). */
  private static final String BACKLOG =
      "local t = redis.call('TIME')\n"
          + "local now = tonumber(t[1]) * 1000000 + tonumber(t[2])\n"
          + "local free = tonumber(redis.call('GET', KEYS[1]) or '0')\n"
          + "return math.max(0, free - now)\n";

  private static final long NEVER_MICROS = Long.MAX_VALUE / 4;

  /**
   * A slot whose thread woke this late, or whose answer took this long to come back, is not used:
   * on a saturated machine, or behind a slow Redis, the late calls of several slots would start
   * together, more of them in one second than the budget allows. The slot is given up and a new one
   * taken, at most {@link #MAX_RETAKES} times.
   */
  static final long LATE_SLOT_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

  private static final int MAX_RETAKES = 3;

  /** The pause before asking a slow Redis again. */
  private static final long RETRY_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

  private final RedisLink redis;
  private final int nodes;
  private final PacedRateLimiter ownShare = new PacedRateLimiter();

  /**
   * A budget shared through {@code redis}; without Redis, each of {@code nodes} takes its share.
   */
  public RedisCallBudget(RedisLink redis, int nodes) {
    if (nodes < 1) {
      throw new IllegalArgumentException("nodes must be at least 1");
    }
    this.redis = redis;
    this.nodes = nodes;
  }

  @Override
  public void acquire(long accountId, int qps) {
    take(accountId, qps, NEVER_MICROS, Duration.ofNanos(Long.MAX_VALUE));
  }

  @Override
  public boolean tryAcquire(long accountId, int qps, Duration maxWait) {
    return take(accountId, qps, micros(maxWait), maxWait);
  }

  @Override
  public Duration backlog(long accountId) {
    return redis
        .call(
            RedisLink.BUDGET,
            r -> r.<Long>eval(BACKLOG, ScriptOutputType.INTEGER, new String[] {key(accountId)}))
        .map(us -> Duration.ofNanos(TimeUnit.MICROSECONDS.toNanos(us)))
        .orElseGet(() -> ownShare.backlog(accountId));
  }

  /** The calls per second one node may make when Redis is down: its share, at least one. */
  public int shareOf(int qps) {
    return Math.max(1, qps / nodes);
  }

  private boolean take(long accountId, int qps, long maxWaitMicros, Duration maxWait) {
    if (qps <= 0) {
      throw new IllegalArgumentException("qps must be positive");
    }
    long interval = Math.max(1, TimeUnit.SECONDS.toMicros(1) / qps);
    long start = System.nanoTime();
    for (int retakes = 0; ; retakes++) {
      long waitedMicros = TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - start);
      long leftMicros = maxWaitMicros < 0 ? -1 : Math.max(0, maxWaitMicros - waitedMicros);
      Optional<Slot> answer = slot(accountId, interval, leftMicros);
      if (answer.isEmpty()) {
        return ownShare.tryAcquire(accountId, shareOf(qps), maxWait);
      }
      Slot slot = answer.get();
      if (slot.waitMicros() < 0) {
        return false;
      }
      boolean lastTake = retakes == MAX_RETAKES;
      if (slot.roundTripNanos() > LATE_SLOT_NANOS && !lastTake) {
        continue;
      }
      long lateNanos =
          slot.roundTripNanos() + waitFor(TimeUnit.MICROSECONDS.toNanos(slot.waitMicros()));
      if (lateNanos <= LATE_SLOT_NANOS || lastTake) {
        return true;
      }
    }
  }

  /**
   * The wait for a slot, measured by Redis from its own now, which lies somewhere between the ask
   * and the answer: a slow answer leaves the slot's start as uncertain as its round trip, which
   * counts as lateness like a late wake-up (a slot used that late would stack on the next ones).
   */
  private record Slot(long waitMicros, long roundTripNanos) {}

  /**
   * The next slot from Redis, asked again while Redis is only slow; empty once Redis is not usable
   * (down, or not connected yet: the call starts the connect), when the node paces at its own
   * share.
   */
  private Optional<Slot> slot(long accountId, long intervalMicros, long maxWaitMicros) {
    while (true) {
      long askedAt = System.nanoTime();
      Optional<Long> answer =
          redis.call(
              RedisLink.BUDGET,
              r ->
                  r.<Long>eval(
                      TAKE,
                      ScriptOutputType.INTEGER,
                      new String[] {key(accountId)},
                      Long.toString(intervalMicros),
                      Long.toString(maxWaitMicros)));
      if (answer.isPresent()) {
        return Optional.of(new Slot(answer.get(), System.nanoTime() - askedAt));
      }
      if (!redis.usable()) {
        return Optional.empty();
      }
      LockSupport.parkNanos(RETRY_PAUSE_NANOS);
    }
  }

  /** Waits {@code nanos}; answers how late the thread woke past the end of the wait. */
  private static long waitFor(long nanos) {
    long until = System.nanoTime() + nanos;
    long left;
    while ((left = until - System.nanoTime()) > 0) {
      LockSupport.parkNanos(left);
      if (Thread.currentThread().isInterrupted()) {
        return 0;
      }
    }
    return -left;
  }

  static String key(long accountId) {
    return "clearway:budget:" + accountId;
  }

  private static long micros(Duration d) {
    if (d.isNegative()) {
      return -1;
    }
    try {
      return Math.min(NEVER_MICROS, TimeUnit.NANOSECONDS.toMicros(d.toNanos()));
    } catch (ArithmeticException e) {
      return NEVER_MICROS;
    }
  }
}
