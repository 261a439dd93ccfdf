package dev.clearway.store;

import static dev.clearway.store.StoreFixtures.created;
import static dev.clearway.store.StoreFixtures.move;
import static dev.clearway.store.StoreFixtures.now;
import static dev.clearway.store.StoreFixtures.store;
import static dev.clearway.store.StoreFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.outbox.OutboxEvent;
import dev.clearway.core.outbox.OutboxRelay;
import dev.clearway.store.testing.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The transactional outbox: a domain event is written by the same statement as the transition that
 * states its fact, never by a CAS that lost; the relay delivers every event at least once.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class OutboxTest {
  private final JdbcOutboxStore outbox = new JdbcOutboxStore(TestDatabase.get().dataSource());

  @BeforeEach
  void reset() {
    TestDatabase.get().reset();
  }

  @Test
  void aTransitionThatStatesAFactWritesItsEventInTheSameStatement() {
    Instant now = now();
    PayFlow paying = move(created(now), FlowStatus.PAYING, now);
    assertThat(outbox.pending()).isZero();

    PayFlow payed = move(paying, FlowStatus.PAYED, now);
    // A CAS that lost (stale version) writes no event.
    assertThat(store().transition(write(paying, FlowStatus.PAY_FAIL, now))).isEmpty();

    List<OutboxEvent> events = outbox.lease(10, now, now.plusSeconds(30));
    assertThat(events)
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.eventType()).isEqualTo("PaymentCaptured");
              assertThat(e.eventId()).isEqualTo("flow-" + payed.id() + "-v2");
              assertThat(e.aggregateId()).isEqualTo(payed.id());
              // JSON as each database writes it: PostgreSQL puts a space before the colon.
              assertThat(e.payload())
                  .containsPattern(
                      "\"tradeOrderNo\" ?: \"" + Pattern.quote(payed.tradeOrderNo()) + "\"");
            });
  }

  @Test
  void theRelayDeliversEveryEventAtLeastOnceAndRetriesFailures() {
    Instant now = now();
    for (int i = 0; i < 3; i++) {
      PayFlow paying = move(created(now), FlowStatus.PAYING, now);
      move(move(paying, FlowStatus.PAYED, now), FlowStatus.BIZ_SUCCESS, now);
    }
    assertThat(outbox.pending()).isEqualTo(6);
    List<String> delivered = new ArrayList<>();
    boolean[] failOnce = {true};
    Clock clock = Clock.fixed(now, ZoneOffset.UTC);
    OutboxRelay relay =
        new OutboxRelay(
            outbox,
            event -> {
              if (event.eventType().equals("PaymentSucceeded") && failOnce[0]) {
                failOnce[0] = false;
                throw new IllegalStateException("broker down");
              }
              delivered.add(event.eventId());
            },
            clock,
            Duration.ofSeconds(30),
            100);

    assertThat(relay.runOnce()).isEqualTo(5);
    assertThat(outbox.pending()).isEqualTo(1);
    // The failed one is leased until its lease expires; then a later pass delivers it.
    assertThat(relay.runOnce()).isZero();
    OutboxRelay later =
        new OutboxRelay(
            outbox,
            event -> delivered.add(event.eventId()),
            Clock.fixed(now.plusSeconds(31), ZoneOffset.UTC),
            Duration.ofSeconds(30),
            100);
    assertThat(later.runOnce()).isEqualTo(1);
    assertThat(outbox.pending()).isZero();
    assertThat(delivered).hasSize(6).doesNotHaveDuplicates();
  }
}
