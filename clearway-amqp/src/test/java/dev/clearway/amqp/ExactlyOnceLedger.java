package dev.clearway.amqp;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import java.io.IOException;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * A downstream consumer of {@code clearway.events} with exactly-once effects over at-least-once
 * delivery: in one transaction it records the event id in a table whose key is the id and, only
 * when the id is new, applies its effect (a row in {@code amqp_test_effect}). To force redelivery
 * it refuses the first delivery of every message after committing, as a consumer that crashed
 * between its commit and its acknowledgement would.
 */
final class ExactlyOnceLedger implements AutoCloseable {
  static final String QUEUE = "clearway.test.ledger";

  private final DataSource db;
  private final Connection connection;
  private final AtomicInteger deliveries = new AtomicInteger();
  private final AtomicInteger redeliveries = new AtomicInteger();

  ExactlyOnceLedger(DataSource db) throws Exception {
    this.db = db;
    this.connection = TestBroker.factory().newConnection();
    Channel channel = connection.createChannel();
    channel.queueDeclare(QUEUE, true, false, false, null);
    channel.queueBind(QUEUE, Topology.EVENTS_EXCHANGE, "#");
    channel.basicQos(10);
    channel.basicConsume(QUEUE, false, new Handler(channel));
  }

  /** The ledger's queue, bound to every event type, before anything is published. */
  static void bind() throws Exception {
    try (Connection c = TestBroker.factory().newConnection();
        Channel channel = c.createChannel()) {
      channel.queueDeclare(QUEUE, true, false, false, null);
      channel.queueBind(QUEUE, Topology.EVENTS_EXCHANGE, "#");
    }
  }

  static void createTables(DataSource db) throws SQLException {
    try (java.sql.Connection c = db.getConnection();
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE IF NOT EXISTS amqp_test_seen (event_id text PRIMARY KEY)");
      st.execute(
          "CREATE TABLE IF NOT EXISTS amqp_test_effect (id bigserial PRIMARY KEY,"
              + " event_id text NOT NULL, event_type text NOT NULL)");
      st.execute("TRUNCATE amqp_test_seen, amqp_test_effect");
    }
  }

  int deliveries() {
    return deliveries.get();
  }

  int redeliveries() {
    return redeliveries.get();
  }

  private boolean apply(String eventId, String type) throws SQLException {
    try (java.sql.Connection c = db.getConnection()) {
      c.setAutoCommit(false);
      try (PreparedStatement seen =
              c.prepareStatement(
                  "INSERT INTO amqp_test_seen (event_id) VALUES (?) ON CONFLICT DO NOTHING");
          PreparedStatement effect =
              c.prepareStatement(
                  "INSERT INTO amqp_test_effect (event_id, event_type) VALUES (?, ?)")) {
        seen.setString(1, eventId);
        boolean first = seen.executeUpdate() == 1;
        if (first) {
          effect.setString(1, eventId);
          effect.setString(2, type);
          effect.executeUpdate();
        }
        c.commit();
        return first;
      } catch (SQLException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    }
  }

  private final class Handler extends DefaultConsumer {
    Handler(Channel channel) {
      super(channel);
    }

    @Override
    public void handleDelivery(
        String tag, Envelope envelope, AMQP.BasicProperties props, byte[] body) throws IOException {
      deliveries.incrementAndGet();
      try {
        apply(props.getMessageId(), envelope.getRoutingKey());
      } catch (SQLException e) {
        getChannel().basicNack(envelope.getDeliveryTag(), false, true);
        return;
      }
      if (!envelope.isRedeliver()) {
        getChannel().basicNack(envelope.getDeliveryTag(), false, true);
        return;
      }
      redeliveries.incrementAndGet();
      getChannel().basicAck(envelope.getDeliveryTag(), false);
    }
  }

  @Override
  public void close() throws IOException {
    connection.abort();
  }
}
