package dev.clearway.boot;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code clearway.broker.*}: RabbitMQ for wake-ups and outbox events. Without a URL wake-ups stay
 * in process and events go to the in-process bus.
 *
 * @param url {@code amqp://user:password@host:5672/vhost}; setting it selects the broker
 * @param consumers channels consuming wake-ups at once (default 4)
 */
@ConfigurationProperties(prefix = "clearway.broker")
public record ClearwayBrokerProperties(String url, Integer consumers) {

  public int consumersOrDefault() {
    return consumers == null ? 4 : consumers;
  }
}
