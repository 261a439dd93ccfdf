package dev.clearway.service.refund;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import dev.clearway.amqp.DelayTiers;
import dev.clearway.amqp.Topology;
import dev.clearway.boot.BrokerWakeupRoute;
import dev.clearway.boot.BrokerWakeups;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.Trigger;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import dev.clearway.core.latecharge.domain.SuspicionSource;
import dev.clearway.core.latecharge.engine.LateChargeChecker;
import dev.clearway.core.latecharge.port.LateChargeStore;
import dev.clearway.core.outbox.OutboxEvent;
import dev.clearway.service.latecharge.LateChargeEngine;
import dev.clearway.service.outbox.InProcessEventBus;
import dev.clearway.service.refund.RefundHttpService.Answer;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The real service with {@code clearway.broker.url} set, on the real RabbitMQ and the embedded
 * PostgreSQL: a refund order and a late-charge check left for later are advanced by the broker's
 * wake-ups (their scanners pause ten minutes between rounds, so only a wake-up can move them), and
 * the outbox still reaches the in-process subscribers after the broker's confirm.
 */
@Tag("rabbitmq")
class BrokerWakeupsHttpTest {
  static final String URL =
      System.getProperty("clearway.test.rabbitmq", "amqp://guest:guest@127.0.0.1:5672");
  private static final String EVENTS_QUEUE = "clearway.test.service-events";
  private static final List<OutboxEvent> received = new CopyOnWriteArrayList<>();

  private static RefundHttpService api;
  private static long users = 9_100;

  @BeforeAll
  static void start() throws Exception {
    purgeWakeups();
    api =
        RefundHttpService.start(
            "clearway.broker.url=" + URL,
            "clearway.refunds.scan-interval=10m",
            "clearway.late-charges.scan-interval=10m");
    api.bean(InProcessEventBus.class).subscribe(received::add);
  }

  @AfterAll
  static void stop() {
    if (api != null) {
      api.close();
    }
  }

  @BeforeEach
  void reset() {
    RefundHttpService.resetDatabase();
    RefundHttpService.execute("TRUNCATE late_charge_check RESTART IDENTITY");
    api.wallet.forgetRequests();
  }

  @Test
  void theBrokerRoutesRefundAndLateChargeWakeupsToTheirEngines() {
    Set<String> kinds = new HashSet<>();
    api.beans(BrokerWakeupRoute.class).values().forEach(r -> kinds.add(r.kind()));
    assertThat(kinds).contains(BrokerWakeups.REFUND, BrokerWakeups.LATE_CHARGE);
  }

  @Test
  void aRefundLeftForLaterIsAdvancedByItsBrokerWakeup() throws Exception {
    long flowId = api.paidFlow(++users, "broker-refund", 990).number("flowId");
    api.wallet.loseRefundResponses(1);
    double consumedBefore = consumed();

    Answer created = api.refund(flowId, "rk-broker", 990, "cancelled order");

    assertThat(created.status()).as("%s", created).isEqualTo(201);
    assertThat(created.text("status")).isEqualTo("PROCESSING");
    long refundId = created.number("refundId");
    api.awaitRefund(refundId, "SUCCESS", Duration.ofSeconds(20));
    assertThat(consumed()).as("wake-ups the broker delivered").isGreaterThan(consumedBefore);
    assertThat(
            RefundHttpService.count(
                "SELECT count(*) FROM refund_order_history WHERE refund_id = "
                    + refundId
                    + " AND to_status = 'SUCCESS' AND trigger_source = 'WAKEUP'"))
        .as("moved to SUCCESS by a wake-up, not by the scanner")
        .isEqualTo(1);
    assertThat(api.wallet.refundRequests()).hasSize(1);
  }

  @Test
  void aLateChargeCheckLeftForLaterIsAdvancedByItsBrokerWakeup() throws Exception {
    PayFlow flow = closedButCharged("broker-late");
    long checkId =
        api.bean(LateChargeStore.class)
            .suspect(flow.id(), SuspicionSource.CALLBACK, Instant.now())
            .orElseThrow()
            .check()
            .id();
    api.wallet.loseQueryPayments(1);
    double consumedBefore = consumed();

    // An operator's nudge: the wallet's answer is lost and the check is left for later.
    LateChargeChecker.Outcome first =
        api.bean(LateChargeEngine.class)
            .checker()
            .advance(checkId, Trigger.unclaimed(TriggerSource.MANUAL));

    assertThat(first).isEqualTo(LateChargeChecker.Outcome.WAITING);
    String requested = "SELECT count(*) FROM late_charge_check WHERE status = 'REFUND_REQUESTED'";
    await(() -> RefundHttpService.count(requested) == 1, Duration.ofSeconds(20));
    assertThat(RefundHttpService.count(requested)).isEqualTo(1);
    assertThat(consumed()).as("wake-ups the broker delivered").isGreaterThan(consumedBefore);
  }

  @Test
  void inProcessSubscribersReceiveOutboxEventsWhileTheBrokerIsSelected() throws Exception {
    try (Connection c = factory().newConnection();
        Channel ch = c.createChannel()) {
      ch.queueDeclare(EVENTS_QUEUE, false, false, true, null);
      ch.queuePurge(EVENTS_QUEUE);
      ch.queueBind(EVENTS_QUEUE, Topology.EVENTS_EXCHANGE, "#");
      long flowId = api.paidFlow(++users, "broker-outbox", 500).number("flowId");
      String succeeded = "flow-" + flowId + "-v3";

      await(
          () -> received.stream().anyMatch(e -> e.eventId().equals(succeeded)),
          Duration.ofSeconds(10));

      assertThat(received).extracting(OutboxEvent::eventId).contains(succeeded);
      assertThat(brokerMessageIds(ch)).as("confirmed by the broker too").contains(succeeded);
      await(
          () ->
              RefundHttpService.count(
                      "SELECT count(*) FROM outbox_event WHERE published_at IS NULL")
                  == 0,
          Duration.ofSeconds(5));
      assertThat(
              RefundHttpService.count(
                  "SELECT count(*) FROM outbox_event WHERE published_at IS NULL"))
          .isZero();
    }
  }

  // ---- helpers ----------------------------------------------------------------------------

  /** A flow cancelled before any payment call, whose order the wallet charged anyway. */
  private static PayFlow closedButCharged(String bizKey) {
    Instant now = Instant.now();
    long user = ++users;
    PayFlow created =
        api.bean(FlowStore.class)
            .createAttempt(
                new NewPayment(
                    GoalKey.ofDefaultMerchant(user, "renewal", bizKey),
                    990,
                    "CNY",
                    now.plusSeconds(600)),
                new Lease("test-holder", now.plusSeconds(3_600)),
                now)
            .flow();
    api.wallet.pay(new ChargeRequest(created.tradeOrderNo(), user, 990, "CNY"));
    Answer cancelled =
        api.send(
            "POST",
            "/v1/payment-flows/" + created.id() + "/cancel",
            RefundHttpService.MERCHANT_KEY,
            null,
            null);
    assertThat(cancelled.status()).as("%s", cancelled).isEqualTo(200);
    return created;
  }

  /** Wake-ups the broker delivered to this service's consumer. */
  private static double consumed() {
    return api.bean(MeterRegistry.class).timer("clearway.broker.wakeup.lag").count();
  }

  private static List<String> brokerMessageIds(Channel ch) throws Exception {
    List<String> ids = new CopyOnWriteArrayList<>();
    GetResponse r;
    while ((r = ch.basicGet(EVENTS_QUEUE, true)) != null) {
      ids.add(r.getProps().getMessageId());
      assertThat(new String(r.getBody(), StandardCharsets.UTF_8)).isNotBlank();
    }
    return ids;
  }

  /** Wake-ups other tests left in the broker would only be counted here too. */
  private static void purgeWakeups() throws Exception {
    try (Connection c = factory().newConnection();
        Channel ch = c.createChannel()) {
      new Topology(DelayTiers.standard()).declare(ch);
      ch.queuePurge(Topology.WORK_QUEUE);
      for (Duration tier : DelayTiers.standard().all()) {
        ch.queuePurge(Topology.delayQueue(tier));
      }
    }
  }

  private static ConnectionFactory factory() throws Exception {
    ConnectionFactory f = new ConnectionFactory();
    f.setUri(URL);
    return f;
  }

  private static void await(BooleanSupplier condition, Duration within)
      throws InterruptedException {
    Instant giveUp = Instant.now().plus(within);
    while (!condition.getAsBoolean() && Instant.now().isBefore(giveUp)) {
      Thread.sleep(50);
    }
  }
}
