package dev.clearway.amqp;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.TimeoutException;

/**
 * One connection to the broker, opened on first use and again after it is lost, and one publishing
 * channel in confirm mode. Every publish waits for the broker's confirm (bounded), so a message
 * counts as sent only once the broker has it on disk (persistent messages, durable queues). While
 * the broker is away publishes fail fast: a connection attempt is bounded by the connect timeout,
 * and after a failed one publishes fail at once until the reconnect pause has passed.
 */
public final class BrokerConnection implements AutoCloseable {
  private final BrokerSettings settings;
  private final Topology topology;
  private final Clock clock;
  private final ConnectionFactory factory = new ConnectionFactory();
  private Connection connection;
  private Channel publishing;
  private Instant nextAttempt = Instant.MIN;

  public BrokerConnection(BrokerSettings settings, Topology topology, Clock clock) {
    this.settings = settings;
    this.topology = topology;
    this.clock = clock;
    try {
      factory.setUri(settings.url());
    } catch (Exception e) {
      throw new IllegalArgumentException("broker url: " + redacted(settings.url()), e);
    }
    factory.setConnectionTimeout((int) settings.connectTimeout().toMillis());
    factory.setHandshakeTimeout((int) settings.connectTimeout().toMillis() * 2);
    // Reconnection is ours: publishes reopen on demand, consumers re-subscribe (WakeupConsumer).
    factory.setAutomaticRecoveryEnabled(false);
  }

  public Topology topology() {
    return topology;
  }

  /** Publishes one message and waits for its confirm; throws if the broker does not confirm. */
  public synchronized void publish(
      String exchange, String routingKey, AMQP.BasicProperties props, byte[] body)
      throws IOException, InterruptedException, TimeoutException {
    Channel channel = publishingChannel();
    try {
      channel.basicPublish(exchange, routingKey, props, body);
      channel.waitForConfirmsOrDie(settings.confirmTimeout().toMillis());
    } catch (IOException | TimeoutException | RuntimeException e) {
      closeQuietly(channel);
      publishing = null;
      throw e;
    }
  }

  /** A new channel for a consumer, on the shared connection (topology declared). */
  public synchronized Channel newChannel() throws IOException, TimeoutException {
    return connection().createChannel();
  }

  private Channel publishingChannel() throws IOException, TimeoutException {
    if (publishing == null || !publishing.isOpen()) {
      Channel channel = connection().createChannel();
      channel.confirmSelect();
      publishing = channel;
    }
    return publishing;
  }

  private Connection connection() throws IOException, TimeoutException {
    if (connection != null && connection.isOpen()) {
      return connection;
    }
    Instant now = clock.instant();
    if (now.isBefore(nextAttempt)) {
      throw new IOException("broker unavailable, next connection attempt at " + nextAttempt);
    }
    if (connection != null) {
      // Lost: start over with a fresh connection.
      abort(connection);
      connection = null;
    }
    try {
      Connection opened = factory.newConnection("clearway");
      try (Channel channel = opened.createChannel()) {
        topology.declare(channel);
      }
      connection = opened;
      return opened;
    } catch (IOException | TimeoutException | RuntimeException e) {
      nextAttempt = now.plus(settings.reconnectPause());
      throw e;
    }
  }

  private static void closeQuietly(Channel channel) {
    try {
      channel.abort();
    } catch (IOException | RuntimeException ignored) {
      // Already gone.
    }
  }

  private static void abort(Connection c) {
    try {
      c.abort(1000);
    } catch (RuntimeException ignored) {
      // Already gone.
    }
  }

  static String redacted(String url) {
    return url.replaceAll("//[^@/]*@", "//***@");
  }

  @Override
  public synchronized void close() {
    if (connection != null) {
      abort(connection);
      connection = null;
    }
  }
}
