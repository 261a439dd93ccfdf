package dev.clearway.store.refund;

import static dev.clearway.store.refund.RefundFixtures.LEASE;
import static dev.clearway.store.refund.RefundFixtures.bizSuccess;
import static dev.clearway.store.refund.RefundFixtures.created;
import static dev.clearway.store.refund.RefundFixtures.lease;
import static dev.clearway.store.refund.RefundFixtures.move;
import static dev.clearway.store.refund.RefundFixtures.now;
import static dev.clearway.store.refund.RefundFixtures.refunds;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refund.port.RefundStore.RescheduleWrite;
import dev.clearway.core.refund.port.RefundStore.TransitionWrite;
import dev.clearway.store.testing.TestDatabase;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A refund-order write applies only while the writer still holds the refund's lease: a claim does
 * not move the status or version, so without the fence a worker whose lease was taken over would
 * still move the refund.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class RefundLeaseFenceTest {

  @BeforeEach
  void clean() {
    RefundFixtures.reset();
  }

  private static RefundOrder find(long id) {
    return refunds().find(id).orElseThrow();
  }

  private static TransitionWrite byWorker(
      RefundOrder from, RefundStatus to, String holder, Instant now) {
    return new TransitionWrite(
        from,
        to,
        null,
        to.isTerminal() ? now : now.plus(LEASE),
        to.isTerminal() ? null : holder,
        new HistoryNote(TriggerSource.SCANNER, null, "TEST", 0),
        now,
        holder);
  }

  @Test
  void aWorkerWhoseLeaseWasTakenOverCannotTransitionTheRefund() {
    Instant now = now();
    RefundOrder processing =
        move(created(bizSuccess(now), 500, "k-1", now), RefundStatus.PROCESSING, now);
    Instant later = now.plus(LEASE).plusSeconds(1);
    assertThat(refunds().claim(processing.id(), lease("taker", later), later)).isTrue();
    assertThat(find(processing.id()).version()).isEqualTo(processing.version());

    String stale = processing.leaseOwner();
    assertThat(refunds().transition(byWorker(processing, RefundStatus.SUCCESS, stale, later)))
        .isEmpty();

    RefundOrder after = find(processing.id());
    assertThat(after.status()).isEqualTo(RefundStatus.PROCESSING);
    assertThat(after.leaseOwner()).isEqualTo("taker");
    assertThat(refunds().transition(byWorker(after, RefundStatus.SUCCESS, "taker", later)))
        .isPresent();
  }

  @Test
  void aRescheduleByAWorkerThatLostItsLeaseChangesNothingWhateverRowItRead() {
    Instant now = now();
    RefundOrder processing =
        move(created(bizSuccess(now), 500, "k-1", now), RefundStatus.PROCESSING, now);
    Instant later = now.plus(LEASE).plusSeconds(1);
    assertThat(refunds().claim(processing.id(), lease("taker", later), later)).isTrue();
    RefundOrder readAfterTakeover = find(processing.id());

    boolean rescheduled =
        refunds()
            .reschedule(
                new RescheduleWrite(
                    readAfterTakeover,
                    1,
                    later.plusSeconds(5),
                    "TIMEOUT",
                    later,
                    processing.leaseOwner()));

    assertThat(rescheduled).isFalse();
    assertThat(find(processing.id())).isEqualTo(readAfterTakeover);
  }
}
