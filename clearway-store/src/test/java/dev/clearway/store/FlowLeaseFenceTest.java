package dev.clearway.store;

import static dev.clearway.store.StoreFixtures.LEASE;
import static dev.clearway.store.StoreFixtures.created;
import static dev.clearway.store.StoreFixtures.history;
import static dev.clearway.store.StoreFixtures.lease;
import static dev.clearway.store.StoreFixtures.leaseOwner;
import static dev.clearway.store.StoreFixtures.now;
import static dev.clearway.store.StoreFixtures.reload;
import static dev.clearway.store.StoreFixtures.store;
import static dev.clearway.store.StoreFixtures.walk;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.ReviewState;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.flow.port.FlowStore.RescheduleWrite;
import dev.clearway.core.flow.port.FlowStore.TransitionWrite;
import dev.clearway.store.testing.TestDatabase;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every write of a worker is fenced by its own lease ({@code lease_owner = holder}): a worker whose
 * lease expired and was claimed by another changes nothing, even though a claim does not move the
 * row's status or version. Commands hold no lease and are fenced by the version.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class FlowLeaseFenceTest {

  @BeforeEach
  void reset() {
    TestDatabase.get().reset();
  }

  private static TransitionWrite byWorker(PayFlow from, FlowStatus to, String holder, Instant now) {
    return new TransitionWrite(
        from,
        to,
        null,
        now.plus(LEASE),
        holder,
        new HistoryNote(TriggerSource.SCANNER, null, "TEST", 0),
        now,
        holder);
  }

  /** The creator's lease expires and "taker" claims the flow: status and version unchanged. */
  private static Instant takeOver(PayFlow f, Instant now) {
    Instant later = now.plus(LEASE).plusSeconds(1);
    assertThat(store().claim(f.id(), lease("taker", later), later)).isTrue();
    PayFlow claimed = reload(f);
    assertThat(claimed.version()).isEqualTo(f.version());
    assertThat(claimed.status()).isEqualTo(f.status());
    return later;
  }

  @Test
  void aWorkerWhoseLeaseWasTakenOverCannotTransitionTheFlow() throws Exception {
    Instant now = now();
    PayFlow read = created(now); // held by "creator"
    Instant later = takeOver(read, now);

    assertThat(store().transition(byWorker(read, FlowStatus.PAYING, "creator", later))).isEmpty();

    PayFlow after = reload(read);
    assertThat(after.status()).isEqualTo(FlowStatus.WAIT_PAY);
    assertThat(after.version()).isEqualTo(read.version());
    assertThat(after.leaseOwner()).isEqualTo("taker");
    assertThat(history(read.id())).hasSize(1);
    // The holder's own write goes through.
    assertThat(store().transition(byWorker(after, FlowStatus.PAYING, "taker", later))).isPresent();
  }

  @Test
  void theFenceIsTheWritersOwnTokenNotTheOwnerTheRowWasReadWith() throws Exception {
    Instant now = now();
    PayFlow paying = walk(created(now), now, FlowStatus.PAYING); // held by "mover"
    Instant later = takeOver(paying, now);
    PayFlow readAfterTakeover = reload(paying); // lease_owner is now "taker"

    boolean rescheduled =
        store()
            .reschedule(
                new RescheduleWrite(
                    readAfterTakeover,
                    1,
                    later.plusSeconds(5),
                    "PAY_UNKNOWN",
                    ReviewState.NONE,
                    null,
                    later,
                    "mover"));
    boolean moved =
        store()
            .transition(byWorker(readAfterTakeover, FlowStatus.PAYED, "mover", later))
            .isPresent();

    assertThat(rescheduled).isFalse();
    assertThat(moved).isFalse();
    assertThat(reload(paying)).isEqualTo(readAfterTakeover);
    assertThat(leaseOwner(paying.id())).isEqualTo("taker");
  }

  @Test
  void aWorkerThatLostItsLeaseCannotFreezeTheFlow() {
    Instant now = now();
    PayFlow payed = walk(created(now), now, FlowStatus.PAYING, FlowStatus.PAYED);
    Instant later = takeOver(payed, now);

    assertThat(store().freeze(payed.id(), "mover", "CONTRADICTION", later)).isFalse();
    assertThat(reload(payed).reviewState()).isEqualTo(ReviewState.NONE);
    assertThat(store().freeze(payed.id(), "taker", "CONTRADICTION", later)).isTrue();
    assertThat(reload(payed).reviewState()).isEqualTo(ReviewState.FROZEN);
  }

  @Test
  void aCommandHoldsNoLeaseAndItsVersionBumpFencesTheWorkerThatReadTheRowBefore() {
    Instant now = now();
    PayFlow read = created(now); // the creator holds it and is about to start paying

    PayFlow closed =
        store()
            .transition(
                TransitionWrite.command(
                    read,
                    FlowStatus.CLOSED,
                    "CANCELLED",
                    new HistoryNote(TriggerSource.API, null, "CANCEL", 0),
                    now))
            .orElseThrow();

    assertThat(closed.leaseOwner()).isNull();
    assertThat(store().transition(byWorker(read, FlowStatus.PAYING, "creator", now))).isEmpty();
    assertThat(reload(read).status()).isEqualTo(FlowStatus.CLOSED);
  }
}
