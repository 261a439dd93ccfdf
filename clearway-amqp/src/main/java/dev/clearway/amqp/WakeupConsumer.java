package dev.clearway.amqp;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * Consumes the work queue: each wake-up goes to the handler of its kind and is acknowledged after
 * the handler returned. A wake-up that arrives early (clocks of two nodes, or a delay past the
 * largest tier) is delayed again; a handler that throws has its wake-up retried after the smallest
 * tier, and after {@code maxFailures} it is rejected into the dead queue and counted. The consumers
 * subscribe again by themselves after the broker was away.
 */
public final class WakeupConsumer implements AutoCloseable {

  /**
   * @param consumers channels consuming at once (each hands one wake-up at a time to its handler)
   * @param prefetch unacknowledged wake-ups per channel
   * @param maxFailures handler failures before a wake-up is dead-lettered
   * @param earlySlack a wake-up due at most this far ahead is handled, not delayed again
   */
  public record Settings(int consumers, int prefetch, int maxFailures, Duration earlySlack) {
    public static Settings defaults() {
      return new Settings(4, 8, 5, Duration.ofMillis(200));
    }
  }

  private final BrokerConnection broker;
  private final Map<String, WakeupHandler> handlers;
  private final Clock clock;
  private final BrokerMetrics metrics;
  private final Settings settings;
  private final Channel[] channels;
  private final Thread watchdog;
  private volatile boolean running = true;

  public WakeupConsumer(
      BrokerConnection broker,
      Map<String, WakeupHandler> handlers,
      Clock clock,
      BrokerMetrics metrics,
      Settings settings) {
    this.broker = broker;
    this.handlers = Map.copyOf(handlers);
    this.clock = clock;
    this.metrics = metrics;
    this.settings = settings;
    this.channels = new Channel[settings.consumers()];
    this.watchdog = new Thread(this::watch, "clearway-wakeup-consumer");
    watchdog.setDaemon(true);
  }

  /** Subscribes now if the broker is there, and keeps subscribing whenever it comes back. */
  public WakeupConsumer start() {
    subscribeMissing();
    watchdog.start();
    return this;
  }

  /** Channels subscribed now. */
  public synchronized int subscribed() {
    int n = 0;
    for (Channel c : channels) {
      n += c != null && c.isOpen() ? 1 : 0;
    }
    return n;
  }

  private void watch() {
    while (running) {
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        return;
      }
      subscribeMissing();
    }
  }

  private synchronized void subscribeMissing() {
    for (int i = 0; i < channels.length && running; i++) {
      if (channels[i] != null && channels[i].isOpen()) {
        continue;
      }
      try {
        Channel channel = broker.newChannel();
        channel.basicQos(settings.prefetch());
        channel.basicConsume(Topology.WORK_QUEUE, false, new Delivery(channel));
        channels[i] = channel;
      } catch (Exception e) {
        return; // broker away: try again on the next watch
      }
    }
  }

  private final class Delivery extends DefaultConsumer {
    Delivery(Channel channel) {
      super(channel);
    }

    @Override
    public void handleDelivery(
        String tag, Envelope envelope, AMQP.BasicProperties props, byte[] body) throws IOException {
      long tagNo = envelope.getDeliveryTag();
      if (envelope.isRedeliver()) {
        metrics.redelivered();
      }
      Wakeup wakeup;
      try {
        wakeup = Wakeup.read(props, body);
      } catch (RuntimeException malformed) {
        deadLetter(tagNo);
        return;
      }
      WakeupHandler handler = handlers.get(wakeup.kind());
      if (handler == null) {
        deadLetter(tagNo);
        return;
      }
      Instant now = clock.instant();
      if (wakeup.due().isAfter(now.plus(settings.earlySlack()))) {
        resend(tagNo, wakeup, now);
        metrics.redelayed();
        return;
      }
      metrics.consumedLate(Duration.between(wakeup.due(), now));
      try {
        handler.wake(wakeup.id());
      } catch (Exception e) {
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        failed(tagNo, wakeup);
        return;
      }
      getChannel().basicAck(tagNo, false);
    }

    private void failed(long tagNo, Wakeup wakeup) throws IOException {
      if (wakeup.failures() + 1 >= settings.maxFailures()) {
        deadLetter(tagNo);
        return;
      }
      Instant now = clock.instant();
      resend(tagNo, wakeup.failedOnce(now.plus(broker.topology().tiers().all().get(0))), now);
    }

    /** Publishes the wake-up again (confirmed), then acknowledges this delivery. */
    private void resend(long tagNo, Wakeup wakeup, Instant now) throws IOException {
      try {
        AmqpWakeups.send(broker, wakeup, now);
      } catch (Exception e) {
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        metrics.publishFailed("wakeup");
        getChannel().basicNack(tagNo, false, true);
        return;
      }
      getChannel().basicAck(tagNo, false);
    }

    private void deadLetter(long tagNo) throws IOException {
      getChannel().basicReject(tagNo, false);
      metrics.deadLettered();
    }
  }

  @Override
  public synchronized void close() {
    running = false;
    watchdog.interrupt();
    for (Channel c : channels) {
      if (c != null) {
        try {
          c.abort();
        } catch (IOException | RuntimeException ignored) {
          // Already gone.
        }
      }
    }
  }
}
