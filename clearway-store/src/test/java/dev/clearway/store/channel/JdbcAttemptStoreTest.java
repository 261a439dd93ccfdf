package dev.clearway.store.channel;

import static dev.clearway.store.channel.ChannelStoreFixture.CREATOR;
import static dev.clearway.store.channel.ChannelStoreFixture.T0;
import static dev.clearway.store.channel.ChannelStoreFixture.evidence;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptOrigin;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.port.AttemptStore;
import dev.clearway.core.channel.port.AttemptStore.AttemptChange;
import dev.clearway.core.channel.port.AttemptStore.NewAttempt;
import dev.clearway.core.channel.port.AttemptStore.NewTask;
import dev.clearway.core.channel.port.AttemptStore.RecordResult;
import dev.clearway.core.channel.port.AttemptStore.TaskChange;
import dev.clearway.core.channel.port.PaymentOrderStore;
import dev.clearway.core.channel.spi.ResultCertainty;
import dev.clearway.store.testing.TestDatabase;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The attempt store's money-safety rules, on the real database: the recording transaction, the
 * compare-and-set, final attempts, one live attempt per order.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class JdbcAttemptStoreTest {

  private final ChannelStoreFixture db = new ChannelStoreFixture();
  private final AttemptStore store = db.stores.attempts();
  private final PaymentOrderStore orders = db.stores.orders();

  @BeforeEach
  void clean() {
    db.clean();
  }

  private Attempt newAttempt(String trade) {
    return db.newAttempt(trade);
  }

  @Test
  void theAttemptItsEvidenceHistoryOutboxAndTaskCommitTogetherOrNotAtAll() {
    Attempt a = newAttempt("t_atomic");
    // Make the outbox insert fail: an event with the id this transition would write exists.
    db.execute(
        "INSERT INTO outbox_event (event_id, event_type, aggregate_id, payload, created_at)"
            + " VALUES ('attempt-"
            + a.id()
            + "-v1', 'X', 0, '{}', now())");

    assertThatThrownBy(
            () ->
                store.record(
                    new AttemptChange(
                        a,
                        AttemptStatus.SUCCEEDED,
                        evidence(ResultCertainty.CONFIRMED_SUCCESS),
                        new TaskChange.Resolve(),
                        false,
                        null,
                        null),
                    T0))
        .isInstanceOf(RuntimeException.class);

    assertThat(store.attempt(a.id()).orElseThrow().status()).isEqualTo(AttemptStatus.CREATED);
    assertThat(db.count("SELECT count(*) FROM provider_evidence")).isZero();
    assertThat(db.count("SELECT count(*) FROM payment_attempt_history")).isZero();
    assertThat(db.text("SELECT status FROM recovery_task")).isEqualTo("LEASED");
    assertThat(db.text("SELECT lease_owner FROM recovery_task")).isEqualTo(CREATOR);
  }

  @Test
  void aStaleVersionLosesAndWritesNothing() {
    Attempt a = newAttempt("t_stale");
    assertThat(
            store.record(
                new AttemptChange(
                    a,
                    AttemptStatus.UNKNOWN,
                    evidence(ResultCertainty.UNKNOWN),
                    new TaskChange.Reschedule(T0.plusSeconds(5), "RETRIEVE", "timeout"),
                    false,
                    null,
                    null),
                T0))
        .isEqualTo(RecordResult.RECORDED);

    RecordResult late =
        store.record(
            new AttemptChange(
                a, // the version read before the first record
                AttemptStatus.SUCCEEDED,
                evidence(ResultCertainty.CONFIRMED_SUCCESS),
                new TaskChange.Resolve(),
                false,
                null,
                null),
            T0);

    assertThat(late).isEqualTo(RecordResult.LOST);
    assertThat(store.attempt(a.id()).orElseThrow().status()).isEqualTo(AttemptStatus.UNKNOWN);
    assertThat(db.count("SELECT count(*) FROM provider_evidence")).isEqualTo(1);
    assertThat(db.count("SELECT count(*) FROM outbox_event")).isZero();
  }

  @Test
  void aFinalAttemptCannotChangeAndNoAttemptIsEverDeleted() {
    Attempt a = newAttempt("t_final");
    store.record(
        new AttemptChange(
            a,
            AttemptStatus.FAILED,
            evidence(ResultCertainty.DEFINITE_FAILURE),
            new TaskChange.Resolve(),
            false,
            null,
            null),
        T0);

    assertThatThrownBy(
            () ->
                db.execute(
                    "UPDATE payment_attempt SET status = 'SUCCEEDED', version = version + 1"
                        + " WHERE id = "
                        + a.id()))
        .hasMessageContaining("final");
    assertThatThrownBy(() -> db.execute("DELETE FROM payment_attempt WHERE id = " + a.id()))
        .hasMessageContaining("never deleted");
  }

  @Test
  void onlyOneLiveAttemptPerOrderAndNoneOnAClosedOrder() {
    newAttempt("t_live");
    Optional<Attempt> second =
        store.insertAttempt(
            new NewAttempt(
                "t_live",
                1,
                AttemptOrigin.FAILOVER,
                1L,
                "",
                new Attempt.Money(500, "EUR", "pm_card_visa"),
                id -> new String[] {"k" + id, "0".repeat(64)}),
            new NewTask("RETRIEVE", T0, "v1", CREATOR),
            T0);
    assertThat(second).isEmpty();
    assertThat(orders.closeOrder("t_live", "test", T0)).isFalse(); // an attempt is live

    assertThat(orders.closeOrder("t_never_paid", "test", T0)).isTrue();
    assertThat(orders.order("t_never_paid").orElseThrow().closed()).isTrue();
  }
}
