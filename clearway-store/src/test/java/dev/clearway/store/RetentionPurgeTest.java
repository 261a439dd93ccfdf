package dev.clearway.store;

import static dev.clearway.core.flow.domain.FlowStatus.PAYING;
import static dev.clearway.core.flow.domain.FlowStatus.PAY_FAIL;
import static dev.clearway.store.StoreFixtures.count;
import static dev.clearway.store.StoreFixtures.created;
import static dev.clearway.store.StoreFixtures.exec;
import static dev.clearway.store.StoreFixtures.now;
import static dev.clearway.store.StoreFixtures.walk;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.retention.RetentionEvents;
import dev.clearway.core.retention.RetentionKind;
import dev.clearway.core.retention.RetentionPolicy;
import dev.clearway.core.retention.RetentionReport;
import dev.clearway.core.retention.RetentionRun;
import dev.clearway.store.retention.JdbcRetentionLease;
import dev.clearway.store.retention.JdbcRetentionStore;
import dev.clearway.store.testing.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The purges by age and the leased run, each with an injected clock, on PostgreSQL. */
class RetentionPurgeTest {
  private final JdbcRetentionStore retention =
      new JdbcRetentionStore(TestDatabase.get().dataSource(), TestDatabase.get().dialect());

  @BeforeEach
  void reset() throws Exception {
    TestDatabase.get().reset();
    TestDatabase.get().truncate("idempotency_key", "callback_inbox", "channel_webhook_inbox");
    exec("UPDATE retention_lease SET lease_owner = NULL, lease_until = NULL");
  }

  private static void idempotency(String key, String state, Instant updated) throws Exception {
    exec(
        "INSERT INTO idempotency_key (merchant_id, idem_key, request_hash, state, flow_id,"
            + " locked_until, created_at, updated_at) VALUES ('m', ?, ?, ?, ?, ?, ?, ?)",
        key,
        "0".repeat(64),
        state,
        "DONE".equals(state) ? 1L : null,
        updated,
        updated,
        updated);
  }

  private static void callback(String event, Instant at) throws Exception {
    exec(
        "INSERT INTO callback_inbox (channel, event_id, event_type, outcome, payload_sha256,"
            + " received_at) VALUES ('wallet', ?, 'PAYMENT', 'ACCEPTED', ?, ?)",
        event,
        "0".repeat(64),
        at);
  }

  private static void outbox(String event, Instant created, Instant published) throws Exception {
    exec(
        "INSERT INTO outbox_event (event_id, event_type, aggregate_id, payload, created_at,"
            + " published_at) VALUES (?, 'PAYED', 1, '{}', ?, ?)",
        event,
        created,
        published);
  }

  private static void webhook(String event, Instant received, Instant done) throws Exception {
    exec(
        "INSERT INTO channel_webhook_inbox (channel, event_id, received_at, done_at,"
            + " channel_account_id) VALUES ('stripe', ?, ?, ?, 1)",
        event,
        received,
        done);
  }

  @Test
  @Tag(TestDatabase.MYSQL_FAMILY)
  void idempotencyRecordsExpireTheConfiguredTimeAfterCompletionOnly() throws Exception {
    Instant now = now();
    idempotency("old-done", "DONE", now.minus(Duration.ofHours(25)));
    idempotency("young-done", "DONE", now.minus(Duration.ofHours(23)));
    idempotency("old-in-flight", "IN_FLIGHT", now.minus(Duration.ofHours(25)));

    int removed =
        retention.removeBatch(
            RetentionKind.IDEMPOTENCY,
            RetentionPolicy.defaults().cutoff(RetentionKind.IDEMPOTENCY, now),
            10);

    assertThat(removed).isEqualTo(1);
    assertThat(count("SELECT count(*) FROM idempotency_key WHERE idem_key = 'old-done'")).isZero();
    assertThat(count("SELECT count(*) FROM idempotency_key")).isEqualTo(2);
  }

  @Test
  @Tag(TestDatabase.MYSQL_FAMILY)
  void inboxesAndPublishedEventsArePurgedByAgeAndPendingEventsNever() throws Exception {
    Instant now = now();
    Instant old = now.minus(Duration.ofDays(40));
    callback("old", old);
    callback("young", now);
    outbox("published-old", old, old);
    outbox("published-young", old, now);
    outbox("pending-old", old, null);
    webhook("done-old", old, old);
    webhook("claimed-old", old, null);
    Instant cutoff = now.minus(Duration.ofDays(30));

    assertThat(retention.removeBatch(RetentionKind.CALLBACK_INBOX, cutoff, 10)).isEqualTo(1);
    assertThat(retention.removeBatch(RetentionKind.PUBLISHED_OUTBOX, cutoff, 10)).isEqualTo(1);
    assertThat(retention.removeBatch(RetentionKind.WEBHOOK_INBOX, cutoff, 10)).isEqualTo(1);

    assertThat(count("SELECT count(*) FROM callback_inbox WHERE event_id = 'young'")).isEqualTo(1);
    assertThat(count("SELECT count(*) FROM outbox_event WHERE event_id <> 'published-old'"))
        .isEqualTo(2);
    assertThat(count("SELECT count(*) FROM outbox_event")).isEqualTo(2);
    assertThat(count("SELECT count(*) FROM channel_webhook_inbox WHERE event_id = 'claimed-old'"))
        .isEqualTo(1);
  }

  @Test
  void aLeasedRunWorksOffEveryKindInBatchesAndASecondNodeSkipsWhileItHoldsTheLease()
      throws Exception {
    Instant now = now();
    Clock clock = Clock.fixed(now, ZoneOffset.UTC);
    for (int i = 0; i < 5; i++) {
      Instant ended = now.minus(Duration.ofDays(100));
      walk(created(ended), ended, PAYING, PAY_FAIL);
      callback("cb" + i, now.minus(Duration.ofDays(31)));
    }
    RetentionPolicy policy = RetentionPolicy.defaults().withBatches(2, 100);
    JdbcRetentionLease lease = new JdbcRetentionLease(TestDatabase.get().dataSource());
    RetentionRun run = new RetentionRun(retention, lease, policy, RetentionEvents.NONE, clock);

    assertThat(lease.acquire("other-node", now.plus(Duration.ofMinutes(5)), now)).isTrue();
    assertThat(run.runOnce("node-1", Duration.ofMinutes(5)).ran()).isFalse();
    assertThat(count("SELECT count(*) FROM pay_flow")).isEqualTo(5);
    lease.release("other-node", now);

    RetentionReport report = run.runOnce("node-1", Duration.ofMinutes(5));

    assertThat(report.ran()).isTrue();
    assertThat(report.removed(RetentionKind.FLOW_ARCHIVE)).isEqualTo(5);
    assertThat(report.removed(RetentionKind.CALLBACK_INBOX)).isEqualTo(5);
    assertThat(count("SELECT count(*) FROM pay_flow")).isZero();
    assertThat(count("SELECT count(*) FROM pay_flow_archive")).isEqualTo(5);
    assertThat(count("SELECT count(*) FROM retention_lease WHERE lease_owner IS NULL"))
        .isEqualTo(1);
  }
}
