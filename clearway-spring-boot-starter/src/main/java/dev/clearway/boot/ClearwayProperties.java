package dev.clearway.boot;

import dev.clearway.business.http.HttpBusinessConfig;
import dev.clearway.core.runtime.QueueLimits;
import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code clearway.*} settings of an embedded engine.
 *
 * @param instanceId prefix of this process's lease tokens (defaults to a random id)
 * @param workers advancing worker threads
 * @param timing {@code production} (seconds to minutes) or {@code compressed} (milliseconds; tests
 *     and demos)
 * @param migrate whether to apply Clearway's migrations at start (own history table)
 * @param workerQueue advances that may wait for a worker (default 4 per worker); beyond it a
 *     wake-up is dropped and counted and the scanner hands over in its own thread
 * @param wakeupCapacity delayed wake-ups held in memory, one per flow (default 50,000); beyond it a
 *     wake-up is dropped and counted, and the scanner finds the flow
 * @param business the business system behind the business contract ({@code clearway.business.*});
 *     with a URL the starter declares an {@code HttpBusinessGateway} unless the application has its
 *     own {@code BusinessGateway}
 */
@ConfigurationProperties(prefix = "clearway")
public record ClearwayProperties(
    String instanceId,
    Integer workers,
    String timing,
    Boolean migrate,
    Integer workerQueue,
    Integer wakeupCapacity,
    Business business) {

  /**
   * {@code clearway.business.*}: where the business system implementing the business contract is.
   *
   * @param url its base URL, e.g. {@code https://renewals.internal}
   * @param secret the HMAC-SHA256 secret both sides sign requests and answers with
   * @param connectTimeout to establish a connection (default 1s)
   * @param requestTimeout from sending a request to its complete answer (default 2s); beyond it the
   *     call is UNKNOWN and the engine reads the goal's fact
   */
  public record Business(
      String url, String secret, Duration connectTimeout, Duration requestTimeout) {

    /** The gateway's configuration; fails on a missing secret or a malformed URL. */
    public HttpBusinessConfig config() {
      HttpBusinessConfig config = HttpBusinessConfig.of(URI.create(url), secret);
      if (connectTimeout != null) {
        config = config.withConnectTimeout(connectTimeout);
      }
      return requestTimeout == null ? config : config.withRequestTimeout(requestTimeout);
    }

    /** Never prints the secret. */
    @Override
    public String toString() {
      return "Business[url=" + url + ", secret=***]";
    }
  }

  public String instanceIdOrRandom() {
    return instanceId != null && !instanceId.isBlank()
        ? instanceId
        : "cw-" + Long.toString(System.nanoTime() & 0xffffffL, 36);
  }

  public int workersOrDefault() {
    return workers == null ? 8 : workers;
  }

  /** The flow engine's queues. */
  public QueueLimits queueLimits() {
    return queueLimits(workersOrDefault());
  }

  /** Queues for an engine of {@code workerCount} workers (the refund engine has its own count). */
  public QueueLimits queueLimits(int workerCount) {
    return new QueueLimits(
        workerQueue == null ? workerCount * 4 : workerQueue,
        wakeupCapacity == null ? QueueLimits.DEFAULT_WAKEUPS : wakeupCapacity);
  }

  public boolean compressed() {
    return "compressed".equalsIgnoreCase(timing);
  }

  public boolean migrateOrDefault() {
    return migrate == null || migrate;
  }
}
