package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.outbox.OutboxEvent;
import dev.clearway.service.outbox.InProcessEventBus;
import dev.clearway.store.testing.TestDatabase;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A payment through the service publishes its domain events through the outbox relay. */
@Tag(TestDatabase.MYSQL_FAMILY)
class OutboxHttpTest {
  private static RunningApi api;
  private static final List<OutboxEvent> received = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() {
    api = RunningApi.start();
    RunningApi.resetDatabase();
    api.bean(InProcessEventBus.class).subscribe(received::add);
  }

  @AfterAll
  static void stop() {
    api.close();
  }

  @Test
  void aSucceededPaymentPublishesCapturedThenSucceededOnceEach() throws Exception {
    RunningApi.Answer paid = api.pay("outbox-1", RunningApi.Payment.of(701, "outbox-goal"));
    assertThat(paid.clientStatus()).isEqualTo("BIZ_SUCCESS");
    long flowId = paid.flowId();

    // The relay may publish other test classes' unpublished events first: wait for this flow's.
    Instant giveUp = Instant.now().plusSeconds(10);
    while (received.stream()
            .noneMatch(e -> e.aggregateId() == flowId && e.eventType().equals("PaymentSucceeded"))
        && Instant.now().isBefore(giveUp)) {
      Thread.sleep(50);
    }

    List<OutboxEvent> mine = received.stream().filter(e -> e.aggregateId() == flowId).toList();
    assertThat(mine)
        .extracting(OutboxEvent::eventType)
        .containsExactly("PaymentCaptured", "PaymentSucceeded");
    assertThat(mine)
        .extracting(OutboxEvent::eventId)
        .containsExactly("flow-" + flowId + "-v2", "flow-" + flowId + "-v3");
    assertThat(RunningApi.count("SELECT count(*) FROM outbox_event WHERE published_at IS NULL"))
        .isZero();
    String metrics =
        api.call("GET", "/actuator/prometheus").bearer(RunningApi.OPERATOR_KEY).send().raw().body();
    assertThat(metrics)
        .contains("clearway_outbox_published_total")
        .contains("clearway_outbox_pending");
  }
}
