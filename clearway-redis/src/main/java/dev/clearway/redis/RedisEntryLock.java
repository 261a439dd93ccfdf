package dev.clearway.redis;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.port.EntryLock;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * {@link EntryLock} across nodes: a Redis key per goal ({@code merchant, user, scene, biz_key}) set
 * only if absent, holding a token of its owner, with a short TTL so that a node that dies frees it.
 * Only the owner releases it (a compare-and-delete in Lua). When Redis is unreachable the lock is
 * not had (the caller goes on without it, counted in {@link RedisLink#fallbacks}); the database's
 * unique keys and compare-and-set still give one flow per goal.
 */
public final class RedisEntryLock implements EntryLock {

  private static final String RELEASE =
      "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end"
          + " return 0";
  private static final Duration POLL = Duration.ofMillis(20);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final RedisLink redis;
  private final Duration ttl;

  public RedisEntryLock(RedisLink redis, Duration ttl) {
    if (ttl.toMillis() <= 0) {
      throw new IllegalArgumentException("ttl must be at least a millisecond");
    }
    this.redis = redis;
    this.ttl = ttl;
  }

  /** A lock whose keys expire after five seconds. */
  public static RedisEntryLock withDefaultTtl(RedisLink redis) {
    return new RedisEntryLock(redis, Duration.ofSeconds(5));
  }

  @Override
  public Optional<Held> tryLock(GoalKey goal, Duration wait) {
    String key = key(goal);
    String token = token();
    long deadline = System.nanoTime() + wait.toNanos();
    while (true) {
      Optional<String> set =
          redis.call(
              RedisLink.LOCK,
              // SET NX answers null when the key is held: "HELD", so that empty means no Redis.
              r ->
                  Objects.requireNonNullElse(
                      r.set(key, token, SetArgs.Builder.nx().px(ttl.toMillis())), "HELD"));
      if (set.isEmpty()) {
        return Optional.empty();
      }
      if ("OK".equals(set.get())) {
        return Optional.of(() -> release(key, token));
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return Optional.empty();
      }
      LockSupport.parkNanos(Math.min(left, POLL.toNanos()));
      if (Thread.currentThread().isInterrupted()) {
        return Optional.empty();
      }
    }
  }

  /** Deletes the key only while it still holds {@code token}; true if it did. */
  boolean release(String key, String token) {
    return redis
        .call(
            RedisLink.LOCK,
            r -> r.<Long>eval(RELEASE, ScriptOutputType.INTEGER, new String[] {key}, token))
        .map(n -> n == 1L)
        .orElse(false);
  }

  /** The Redis key of a goal: each part URL-encoded, so no two goals share a key. */
  static String key(GoalKey goal) {
    return "clearway:entry:"
        + enc(goal.merchant())
        + ':'
        + goal.userId()
        + ':'
        + enc(goal.scene())
        + ':'
        + enc(goal.bizKey());
  }

  private static String enc(String part) {
    return URLEncoder.encode(part, StandardCharsets.UTF_8);
  }

  private static String token() {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }
}
