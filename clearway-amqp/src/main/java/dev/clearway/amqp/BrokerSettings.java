package dev.clearway.amqp;

import java.time.Duration;

/**
 * Where the broker is and how long a publish may wait for it.
 *
 * @param url {@code amqp://user:password@host:port/vhost}
 * @param connectTimeout how long opening a connection may take; a publish while the broker is down
 *     fails within it
 * @param confirmTimeout how long a publish waits for the broker's confirm
 * @param reconnectPause after a failed connection attempt, publishes fail at once for this long
 *     instead of trying again
 */
public record BrokerSettings(
    String url, Duration connectTimeout, Duration confirmTimeout, Duration reconnectPause) {

  /** Fail-fast defaults: 1 s to connect, 2 s for a confirm, 1 s between connection attempts. */
  public static BrokerSettings of(String url) {
    return new BrokerSettings(
        url, Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(1));
  }

  public BrokerSettings withReconnectPause(Duration pause) {
    return new BrokerSettings(url, connectTimeout, confirmTimeout, pause);
  }
}
