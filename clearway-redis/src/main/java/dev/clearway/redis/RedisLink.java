package dev.clearway.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

/**
 * One connection to Redis shared by the cluster options, with short timeouts. A failed call answers
 * empty at once: the caller falls back to its own rule (no lock, each node's share of a budget).
 * Every fallback is counted per use ({@link #fallbacks}).
 *
 * <p>A refused or broken connection marks Redis down for a short while, during which every call
 * answers empty without trying. A command that only timed out does not: a busy machine makes single
 * commands slow while Redis still holds the shared state, and a node that left it for its own rule
 * at every slow answer would add its own share on top of what the others take through Redis. Redis
 * is marked down after timeouts only when they last a whole down window with no answer between.
 */
public final class RedisLink implements AutoCloseable {

  /** Fallbacks of the entry lock. */
  public static final String LOCK = "lock";

  /** Fallbacks of the call budget. */
  public static final String BUDGET = "budget";

  /** Probes of the legacy in-flight markers that could not answer. */
  public static final String MARKERS = "markers";

  /** How long a connect may take: longer than a command, as the first one loads the client. */
  public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

  private static final System.Logger LOG = System.getLogger(RedisLink.class.getName());

  private final RedisClient client;
  private final Duration downFor;
  private final Map<String, LongAdder> fallbacks = new ConcurrentHashMap<>();
  private final AtomicBoolean connecting = new AtomicBoolean();
  private volatile StatefulRedisConnection<String, String> connection;
  private volatile long downUntilNanos = System.nanoTime();
  private volatile boolean slow;
  private volatile long slowSinceNanos;

  private RedisLink(RedisClient client, Duration downFor) {
    this.client = client;
    this.downFor = downFor;
  }

  /**
   * A link to {@code url} ({@code redis://host:port[/db]}) whose commands give up after {@code
   * timeout}, and which stays down for {@code downFor} after a failure. Nothing is connected before
   * the first call; a connect (the first call, and the first after a down window) gives up after
   * {@link #CONNECT_TIMEOUT}, and a refused connection fails at once.
   */
  public static RedisLink of(String url, Duration timeout, Duration downFor) {
    RedisURI uri = RedisURI.create(url);
    uri.setTimeout(CONNECT_TIMEOUT);
    RedisClient client = RedisClient.create(uri);
    client.setOptions(
        ClientOptions.builder()
            .socketOptions(SocketOptions.builder().connectTimeout(CONNECT_TIMEOUT).build())
            .timeoutOptions(TimeoutOptions.enabled(timeout))
            .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
            .autoReconnect(true)
            .build());
    return new RedisLink(client, downFor);
  }

  /** {@link #of} with a 250 ms command timeout and one second down after a failure. */
  public static RedisLink of(String url) {
    return of(url, Duration.ofMillis(250), Duration.ofSeconds(1));
  }

  /**
   * Runs {@code op} on Redis; empty when {@code op} answers null; empty and one fallback of {@code
   * use} counted when Redis is down, not connected yet, or the call fails. A call never waits for a
   * connect: the first call starts one in the background and falls back.
   */
  public <T> Optional<T> call(String use, Function<RedisCommands<String, String>, T> op) {
    StatefulRedisConnection<String, String> c = connection;
    if (c == null) {
      connectInBackground();
      return fallback(use);
    }
    if (System.nanoTime() - downUntilNanos < 0) {
      return fallback(use);
    }
    try {
      T answer = op.apply(c.sync());
      if (slow) {
        slow = false;
      }
      return Optional.ofNullable(answer);
    } catch (RedisCommandTimeoutException e) {
      timedOut(use, e);
      return fallback(use);
    } catch (RuntimeException e) {
      down(use, e);
      return fallback(use);
    }
  }

  /**
   * True when a call would be tried now: connected and not marked down. A call that failed while
   * the link stays usable only timed out, and may be tried again.
   */
  public boolean usable() {
    return connection != null && System.nanoTime() - downUntilNanos >= 0;
  }

  /**
   * Connects now if not connected, waiting at most {@code max} or until the connect fails; true
   * once connected.
   */
  public boolean awaitConnected(Duration max) {
    long deadline = System.nanoTime() + max.toNanos();
    connectInBackground();
    while (connection == null && System.nanoTime() - deadline < 0) {
      LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
      if (!connecting.get() && System.nanoTime() - downUntilNanos < 0) {
        break;
      }
    }
    return connection != null;
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

  /** Marks Redis down only when commands have been timing out for a whole down window. */
  private void timedOut(String use, RuntimeException e) {
    long now = System.nanoTime();
    if (!slow) {
      slowSinceNanos = now;
      slow = true;
    } else if (now - slowSinceNanos >= downFor.toNanos()) {
      slow = false;
      down(use, e);
    }
  }

  private void down(String use, RuntimeException e) {
    downUntilNanos = System.nanoTime() + downFor.toNanos();
    LOG.log(
        System.Logger.Level.WARNING,
        "Redis unreachable ({0}); {1} falls back for {2} ms",
        e.getCause() == null ? e.toString() : e + ": " + e.getCause(),
        use,
        downFor.toMillis());
  }

  /** One connect at a time, on its own thread, and none while down after a failed one. */
  private void connectInBackground() {
    if (System.nanoTime() - downUntilNanos < 0 || !connecting.compareAndSet(false, true)) {
      return;
    }
    Thread connector =
        new Thread(
            () -> {
              try {
                connection = client.connect();
              } catch (RuntimeException e) {
                down("connect", e);
              } finally {
                connecting.set(false);
              }
            },
            "clearway-redis-connect");
    connector.setDaemon(true);
    connector.start();
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
