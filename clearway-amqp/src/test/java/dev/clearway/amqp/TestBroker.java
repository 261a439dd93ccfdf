package dev.clearway.amqp;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import java.time.Clock;
import java.time.Duration;

/**
 * The RabbitMQ the tests run against (system property {@code clearway.test.rabbitmq}, default the
 * local broker), a port where no broker listens, and a way to empty Clearway's queues.
 */
final class TestBroker {
  static final String URL =
      System.getProperty("clearway.test.rabbitmq", "amqp://guest:guest@127.0.0.1:5672");

  /** Nothing listens on port 1: connections are refused at once. */
  static final String DOWN = "amqp://guest:guest@127.0.0.1:1";

  static final DelayTiers TIERS = DelayTiers.standard();

  private TestBroker() {}

  static BrokerConnection connect(String url) {
    return new BrokerConnection(
        BrokerSettings.of(url).withReconnectPause(Duration.ofMillis(200)),
        new Topology(TIERS),
        Clock.systemUTC());
  }

  /** Declares the topology and empties every Clearway queue (and the given test queues). */
  static void purge(String... extraQueues) throws Exception {
    try (Connection c = factory().newConnection();
        Channel ch = c.createChannel()) {
      new Topology(TIERS).declare(ch);
      ch.queuePurge(Topology.WORK_QUEUE);
      ch.queuePurge(Topology.DEAD_QUEUE);
      for (Duration tier : TIERS.all()) {
        ch.queuePurge(Topology.delayQueue(tier));
      }
      for (String q : extraQueues) {
        ch.queueDeclare(q, true, false, false, null);
        ch.queuePurge(q);
      }
    }
  }

  static long messages(String queue) throws Exception {
    try (Connection c = factory().newConnection();
        Channel ch = c.createChannel()) {
      return ch.queueDeclarePassive(queue).getMessageCount();
    }
  }

  static ConnectionFactory factory() throws Exception {
    ConnectionFactory f = new ConnectionFactory();
    f.setUri(URL);
    return f;
  }
}
