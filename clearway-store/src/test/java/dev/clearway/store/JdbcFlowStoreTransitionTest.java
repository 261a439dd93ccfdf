package dev.clearway.store;

import static dev.clearway.store.StoreFixtures.LEASE;
import static dev.clearway.store.StoreFixtures.created;
import static dev.clearway.store.StoreFixtures.history;
import static dev.clearway.store.StoreFixtures.historyCount;
import static dev.clearway.store.StoreFixtures.move;
import static dev.clearway.store.StoreFixtures.now;
import static dev.clearway.store.StoreFixtures.race;
import static dev.clearway.store.StoreFixtures.reload;
import static dev.clearway.store.StoreFixtures.store;
import static dev.clearway.store.StoreFixtures.walk;
import static dev.clearway.store.StoreFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.IllegalTransitionException;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.ReviewState;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.flow.port.FlowStore.RescheduleWrite;
import dev.clearway.core.flow.port.FlowStore.TransitionWrite;
import dev.clearway.store.StoreFixtures.HistoryRow;
import dev.clearway.store.testing.TestDatabase;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The CAS transition and its history row, written by one statement. */
@Tag(TestDatabase.MYSQL_FAMILY)
class JdbcFlowStoreTransitionTest {

  @BeforeEach
  void reset() {
    TestDatabase.get().reset();
  }

  /** The same row as {@code f} but with another version: what a stale snapshot looks like. */
  private static PayFlow withVersion(PayFlow f, long version) {
    return new PayFlow(
        f.id(),
        f.goal(),
        f.attemptNo(),
        f.tradeOrderNo(),
        f.refundOrderNo(),
        f.status(),
        version,
        f.amount(),
        f.currency(),
        f.bizDeadline(),
        f.nextRetryTime(),
        f.retryCount(),
        f.lastErrorCode(),
        f.reviewState(),
        f.reviewReason(),
        f.leaseOwner(),
        f.createdAt(),
        f.updatedAt());
  }

  private static PayFlow withStatus(PayFlow f, FlowStatus status) {
    return new PayFlow(
        f.id(),
        f.goal(),
        f.attemptNo(),
        f.tradeOrderNo(),
        f.refundOrderNo(),
        status,
        f.version(),
        f.amount(),
        f.currency(),
        f.bizDeadline(),
        f.nextRetryTime(),
        f.retryCount(),
        f.lastErrorCode(),
        f.reviewState(),
        f.reviewReason(),
        f.leaseOwner(),
        f.createdAt(),
        f.updatedAt());
  }

  @Test
  void successBumpsTheVersionByOneAndAppendsExactlyOneHistoryRow() throws Exception {
    Instant t0 = now();
    PayFlow waitPay = created(t0);
    long historyBefore = historyCount();

    Instant t1 = t0.plusMillis(250);
    TransitionWrite w =
        new TransitionWrite(
            waitPay,
            FlowStatus.PAYING,
            "START",
            t1.plus(LEASE),
            "worker/7",
            new HistoryNote(TriggerSource.SCANNER, "req-42", "START_PAY", 17),
            t1,
            waitPay.leaseOwner());
    Optional<PayFlow> written = store().transition(w);

    assertThat(written).isPresent();
    PayFlow paying = written.get();
    assertThat(paying.id()).isEqualTo(waitPay.id());
    assertThat(paying.status()).isEqualTo(FlowStatus.PAYING);
    assertThat(paying.version()).isEqualTo(waitPay.version() + 1);
    assertThat(paying.leaseOwner()).isEqualTo("worker/7");
    assertThat(paying.nextRetryTime()).isEqualTo(t1.plus(LEASE));
    assertThat(paying.lastErrorCode()).isEqualTo("START");
    assertThat(paying.updatedAt()).isEqualTo(t1);
    assertThat(paying.createdAt()).isEqualTo(waitPay.createdAt());
    assertThat(paying.tradeOrderNo()).isEqualTo(waitPay.tradeOrderNo());
    // the returned row is the primary's row
    assertThat(reload(paying)).isEqualTo(paying);

    assertThat(historyCount()).isEqualTo(historyBefore + 1);
    List<HistoryRow> history = history(waitPay.id());
    assertThat(history).hasSize(2);
    HistoryRow h = history.get(1);
    assertThat(h.fromStatus()).isEqualTo("WAIT_PAY");
    assertThat(h.toStatus()).isEqualTo("PAYING");
    assertThat(h.version()).isEqualTo(paying.version());
    assertThat(h.attemptNo()).isEqualTo(waitPay.attemptNo());
    assertThat(h.bizKey()).isEqualTo(waitPay.goal().bizKey());
    assertThat(h.tradeOrderNo()).isEqualTo(waitPay.tradeOrderNo());
    assertThat(h.refundOrderNo()).isEqualTo(waitPay.refundOrderNo());
    assertThat(h.triggerSource()).isEqualTo("SCANNER");
    assertThat(h.requestId()).isEqualTo("req-42");
    assertThat(h.resultClass()).isEqualTo("START_PAY");
    assertThat(h.errorCode()).isEqualTo("START");
    assertThat(h.elapsedMs()).isEqualTo(17);
    assertThat(h.createdAt()).isEqualTo(t1);
  }

  @Test
  void aWholePathLeavesOneHistoryRowPerStepWithConsecutiveVersions() throws Exception {
    Instant now = now();
    PayFlow f = created(now);
    PayFlow end =
        walk(
            f, now, FlowStatus.PAYING, FlowStatus.PAYED, FlowStatus.REFUNDING, FlowStatus.REFUNDED);

    assertThat(end.status()).isEqualTo(FlowStatus.REFUNDED);
    assertThat(end.version()).isEqualTo(4);
    assertThat(history(f.id()))
        .extracting(HistoryRow::fromStatus, HistoryRow::toStatus, HistoryRow::version)
        .containsExactly(
            tuple(null, "WAIT_PAY", 0L),
            tuple("WAIT_PAY", "PAYING", 1L),
            tuple("PAYING", "PAYED", 2L),
            tuple("PAYED", "REFUNDING", 3L),
            tuple("REFUNDING", "REFUNDED", 4L));
  }

  @Test
  void staleVersionReturnsEmptyAndWritesNoHistory() throws Exception {
    Instant now = now();
    PayFlow paying = walk(created(now), now, FlowStatus.PAYING);
    long historyBefore = historyCount();

    for (long stale : new long[] {paying.version() - 1, paying.version() + 1, 99}) {
      Optional<PayFlow> r =
          store().transition(write(withVersion(paying, stale), FlowStatus.PAYED, now));
      assertThat(r).as("version %d", stale).isEmpty();
    }

    assertThat(reload(paying)).isEqualTo(paying);
    assertThat(historyCount()).isEqualTo(historyBefore);
  }

  @Test
  void staleStatusReturnsEmptyAndWritesNoHistory() throws Exception {
    Instant now = now();
    PayFlow waitPay = created(now);
    PayFlow paying = move(waitPay, FlowStatus.PAYING, now);
    long historyBefore = historyCount();

    // the old snapshot: status and version both stale
    assertThat(store().transition(write(waitPay, FlowStatus.CLOSED, now))).isEmpty();
    // status stale while the version matches the row's current version
    assertThat(
            store()
                .transition(write(withStatus(paying, FlowStatus.WAIT_PAY), FlowStatus.CLOSED, now)))
        .isEmpty();

    assertThat(reload(paying)).isEqualTo(paying);
    assertThat(historyCount()).isEqualTo(historyBefore);
  }

  @Test
  void anIllegalEdgeIsRefusedBeforeTheDatabaseIsTouched() throws Exception {
    Instant now = now();
    PayFlow waitPay = created(now);
    long historyBefore = historyCount();

    assertThatThrownBy(() -> store().transition(write(waitPay, FlowStatus.PAYED, now)))
        .isInstanceOf(IllegalTransitionException.class);

    assertThat(reload(waitPay)).isEqualTo(waitPay);
    assertThat(historyCount()).isEqualTo(historyBefore);
  }

  @Test
  void ofConcurrentTransitionsFromOneSnapshotExactlyOneWins() throws Exception {
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int round = 0; round < 10; round++) {
        Instant now = now();
        PayFlow paying = walk(created(now), now, FlowStatus.PAYING);
        long historyBefore = historyCount();

        // half of them saw SUCCESS, half saw a definite failure: mutually exclusive branches
        List<Optional<PayFlow>> results =
            race(
                pool,
                threads,
                i ->
                    store()
                        .transition(
                            write(
                                paying, i % 2 == 0 ? FlowStatus.PAYED : FlowStatus.PAY_FAIL, now)));

        List<PayFlow> winners = results.stream().flatMap(Optional::stream).toList();
        assertThat(winners).hasSize(1);
        PayFlow row = reload(paying);
        assertThat(row).isEqualTo(winners.get(0));
        assertThat(row.version()).isEqualTo(paying.version() + 1);
        assertThat(historyCount()).isEqualTo(historyBefore + 1);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aTransitionResetsTheRetryCountAndClearsEscalation() throws Exception {
    Instant now = now();
    PayFlow paying = walk(created(now), now, FlowStatus.PAYING);
    assertThat(
            store()
                .reschedule(
                    new RescheduleWrite(
                        paying,
                        15,
                        now.plusSeconds(600),
                        "PAY_UNKNOWN",
                        ReviewState.ESCALATED,
                        "RETRY_BUDGET_SPENT:PAY_UNKNOWN",
                        now,
                        paying.leaseOwner())))
        .isTrue();
    PayFlow escalated = reload(paying);
    assertThat(escalated.reviewState()).isEqualTo(ReviewState.ESCALATED);

    PayFlow payed = move(escalated, FlowStatus.PAYED, now.plusSeconds(1));

    assertThat(payed.retryCount()).isZero();
    assertThat(payed.reviewState()).isEqualTo(ReviewState.NONE);
    assertThat(payed.version()).isEqualTo(escalated.version() + 1);
  }

  @Test
  void aRequestIdIsKeptWhenALaterTransitionBringsNone() throws Exception {
    Instant now = now();
    PayFlow waitPay = created(now);
    PayFlow paying =
        store()
            .transition(
                new TransitionWrite(
                    waitPay,
                    FlowStatus.PAYING,
                    null,
                    now.plus(LEASE),
                    "w",
                    new HistoryNote(TriggerSource.SYNC, "wallet-req-1", "START_PAY", 0),
                    now,
                    waitPay.leaseOwner()))
            .orElseThrow();
    move(paying, FlowStatus.PAYED, now);

    assertThat(
            StoreFixtures.count(
                "SELECT count(*) FROM pay_flow WHERE id = ? AND channel_request_id = ?",
                waitPay.id(),
                "wallet-req-1"))
        .isEqualTo(1);
  }

  @Test
  void aFrozenFlowTakesNoAutomaticTransitionEvenFromAWorkerThatReadItBefore() throws Exception {
    Instant now = now();
    PayFlow read = move(created(now), FlowStatus.PAYING, now);
    assertThat(store().freeze(read.id(), read.leaseOwner(), "CONTRADICTION", now)).isTrue();

    assertThat(store().transition(write(read, FlowStatus.PAYED, now))).isEmpty();
    PayFlow after = reload(read);
    assertThat(after.status()).isEqualTo(FlowStatus.PAYING);
    assertThat(after.reviewState()).isEqualTo(ReviewState.FROZEN);
    assertThat(history(read.id())).hasSize(2);
  }

  @Test
  void aWorkerWhoseLeaseWasTakenOverCannotReleaseTheNewHoldersLease() throws Exception {
    Instant now = now();
    PayFlow staleRead = move(created(now), FlowStatus.PAYING, now);
    // The lease expires and another worker claims the flow.
    Instant later = now.plus(LEASE).plusSeconds(1);
    assertThat(store().claim(staleRead.id(), StoreFixtures.lease("taker", later), later)).isTrue();

    boolean released =
        store()
            .reschedule(
                new RescheduleWrite(
                    staleRead,
                    1,
                    later.plusSeconds(5),
                    "PAY_UNKNOWN",
                    ReviewState.NONE,
                    null,
                    later,
                    staleRead.leaseOwner()));

    assertThat(released).isFalse();
    assertThat(StoreFixtures.leaseOwner(staleRead.id())).isEqualTo("taker");
  }
}
