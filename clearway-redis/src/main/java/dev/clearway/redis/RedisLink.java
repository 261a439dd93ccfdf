package dev.clearway.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * One connection to Redis shared by the cluster options, with short timeouts. A failed call (Redis
 * unreachable, too slow) answers empty at once and marks Redis down for a short while, during which
 * every call answers empty without trying: the caller falls back to its own rule (no lock, each
 * node's share of a budget). Every fallback is counted per use ({@link #fallbacks}).
 */
public final class RedisLink implements AutoCloseable {

  /** Fallbacks of the entry lock. */
  public static final String LOCK = "lock";

  /** Fallbacks of the call budget. */
  public static final String BUDGET = "budget";

  private final RedisClient client;
  private final Duration downFor;
  private final Map<String, LongAdder> fallbacks = new ConcurrentHashMap<>();
  private volatile StatefulRedisConnection<String, String> connection;
  private volatile long downUntilNanos = System.nanoTime();

  private RedisLink(RedisClient client, Duration downFor) {
    this.client = client;
    this.downFor = downFor;
  }

  /**
   * A link to {@code url} ({@code redis://host:port[/db]}) whose connects and commands give up
   * after {@code timeout}, and which stays down for {@code downFor} after a failure. Nothing is
   * connected before the first call.
   */
  public static RedisLink of(String url, Duration timeout, Duration downFor) {
    RedisURI uri = RedisURI.create(url);
    uri.setTimeout(timeout);
    RedisClient client = RedisClient.create(uri);
    client.setOptions(
        ClientOptions.builder()
            .socketOptions(SocketOptions.builder().connectTimeout(timeout).build())
            .timeoutOptions(TimeoutOptions.enabled(timeout))
            .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
            .autoReconnect(true)
            .build());
    return new RedisLink(client, downFor);
  }

  /** {@link #of} with a 200 ms timeout and one second down after a failure. */
  public static RedisLink of(String url) {
    return of(url, Duration.ofMillis(200), Duration.ofSeconds(1));
  }

  /**
   * Runs {@code op} on Redis; empty (and one fallback of {@code use} counted) when Redis is down or
   * the call fails.
   */
  public <T> Optional<T> call(String use, Function<RedisCommands<String, String>, T> op) {
    if (System.nanoTime() - downUntilNanos < 0) {
      return fallback(use);
    }
    try {
      return Optional.ofNullable(op.apply(connection().sync()));
    } catch (RuntimeException e) {
      downUntilNanos = System.nanoTime() + downFor.toNanos();
      return fallback(use);
    }
  }

  /** Calls of {@code use} that fell back because Redis was down or failed. */
  public long fallbacks(String use) {
    LongAdder n = fallbacks.get(use);
    return n == null ? 0 : n.sum();
  }

  private <T> Optional<T> fallback(String use) {
    fallbacks.computeIfAbsent(use, u -> new LongAdder()).increment();
    return Optional.empty();
  }

  private StatefulRedisConnection<String, String> connection() {
    StatefulRedisConnection<String, String> c = connection;
    if (c != null) {
      return c;
    }
    synchronized (this) {
      if (connection == null) {
        connection = client.connect();
      }
      return connection;
    }
  }

  @Override
  public void close() {
    StatefulRedisConnection<String, String> c = connection;
    if (c != null) {
      c.close();
    }
    client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
  }
}
