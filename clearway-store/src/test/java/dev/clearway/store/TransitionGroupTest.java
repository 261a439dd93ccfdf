package dev.clearway.store;

import static dev.clearway.store.StoreFixtures.LEASE;
import static dev.clearway.store.StoreFixtures.count;
import static dev.clearway.store.StoreFixtures.created;
import static dev.clearway.store.StoreFixtures.history;
import static dev.clearway.store.StoreFixtures.lease;
import static dev.clearway.store.StoreFixtures.leaseOwner;
import static dev.clearway.store.StoreFixtures.now;
import static dev.clearway.store.StoreFixtures.reload;
import static dev.clearway.store.StoreFixtures.store;
import static dev.clearway.store.StoreFixtures.walk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.flow.port.FlowStore.TransitionWrite;
import dev.clearway.store.testing.TestDatabase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Workers' transitions of several flows in one statement and one commit: each is still its own CAS
 * on (status, version) fenced by its writer's lease, so a write whose row moved or whose lease was
 * taken over changes nothing while the others commit, and a write the guard refuses fails alone.
 */
class TransitionGroupTest {

  private TransitionGroup group;

  @BeforeEach
  void reset() {
    TestDatabase db = TestDatabase.get();
    db.reset();
    String statement = db.dialect().transitionGroupSql();
    assumeTrue(statement != null, "this dialect writes each transition alone");
    group = new TransitionGroup(new Sql(db.dataSource()), statement);
  }

  private static TransitionWrite byWorker(PayFlow from, FlowStatus to, String holder, Instant now) {
    return new TransitionWrite(
        from,
        to,
        null,
        to.isTerminal() ? now : now.plus(LEASE),
        to.isTerminal() ? null : holder,
        new HistoryNote(TriggerSource.SCANNER, "rq-" + from.id(), "SUCCESS", 3),
        now,
        holder);
  }

  /** A PAYING flow held by {@code holder}. */
  private static PayFlow paying(Instant now, String holder) {
    PayFlow f = walk(created(now), now, FlowStatus.PAYING); // held by "mover"
    if (!holder.equals("mover")) {
      Instant later = now.plus(LEASE).plusSeconds(1);
      assertThat(store().claim(f.id(), lease(holder, later), later)).isTrue();
      f = reload(f);
    }
    return f;
  }

  @Test
  void aWriteWhoseRowMovedOrWhoseLeaseWasLostChangesNothingWhileTheOthersCommit() throws Exception {
    Instant now = now();
    PayFlow good = paying(now, "mover");
    PayFlow stale = paying(now, "mover");
    PayFlow movedMeanwhile =
        store().transition(byWorker(stale, FlowStatus.PAYED, "mover", now)).orElseThrow();
    PayFlow takenOver = paying(now, "taker"); // "mover" lost this lease

    List<Optional<PayFlow>> results =
        group.write(
            List.of(
                byWorker(good, FlowStatus.PAYED, "mover", now),
                byWorker(stale, FlowStatus.PAY_FAIL, "mover", now),
                byWorker(takenOver, FlowStatus.PAYED, "mover", now)));

    assertThat(results.get(0)).isPresent();
    assertThat(results.get(0).get().status()).isEqualTo(FlowStatus.PAYED);
    assertThat(results.get(0).get().version()).isEqualTo(good.version() + 1);
    assertThat(results.get(0).get().leaseOwner()).isEqualTo("mover");
    assertThat(results.get(1)).isEmpty();
    assertThat(results.get(2)).isEmpty();
    assertThat(reload(good)).isEqualTo(results.get(0).get());
    assertThat(reload(stale)).isEqualTo(movedMeanwhile);
    assertThat(reload(takenOver)).isEqualTo(takenOver);
    assertThat(leaseOwner(takenOver.id())).isEqualTo("taker");
    // One history row per written transition, none for the refused ones.
    assertThat(history(good.id())).hasSize(3);
    assertThat(history(good.id()).get(2).toString()).contains("PAYING", "PAYED", "rq-" + good.id());
    assertThat(history(stale.id())).hasSize(3);
    assertThat(history(takenOver.id())).hasSize(2);
  }

  @Test
  void aGroupWithAnEdgeTheGuardRefusesWritesNothing() throws Exception {
    Instant now = now();
    PayFlow a = paying(now, "mover");
    PayFlow b = paying(now, "mover");

    // PAYING -> BIZ_SUCCESS skips PAYED: the database's guard refuses it, and with it the
    // statement.
    assertThatThrownBy(
            () ->
                group.write(
                    List.of(
                        byWorker(a, FlowStatus.PAYED, "mover", now),
                        byWorker(b, FlowStatus.BIZ_SUCCESS, "mover", now))))
        .isInstanceOf(StoreException.class);

    assertThat(reload(a)).isEqualTo(a);
    assertThat(reload(b)).isEqualTo(b);
  }

  @Test
  void whenOneWriteFailsTheGroupTheOthersAreWrittenAloneAndCommit() throws Exception {
    Instant now = now();
    PayFlow first = paying(now, "mover");
    PayFlow a = paying(now, "mover");
    PayFlow refused = paying(now, "mover");
    PayFlow c = paying(now, "mover");
    CountDownLatch firstStarted = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    List<Integer> groupSizes = new ArrayList<>();
    GroupCommit<TransitionWrite, Optional<PayFlow>> commits =
        new GroupCommit<>(
            1,
            64,
            w -> w.from().id(),
            w -> {
              if (w.from().id() == first.id()) {
                firstStarted.countDown();
                await(release);
              }
              return group.write(List.of(w)).get(0);
            },
            writes -> {
              synchronized (groupSizes) {
                groupSizes.add(writes.size());
              }
              return group.write(writes);
            });
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      Future<Optional<PayFlow>> f0 =
          pool.submit(() -> commits.submit(byWorker(first, FlowStatus.PAYED, "mover", now)));
      assertThat(firstStarted.await(10, TimeUnit.SECONDS)).isTrue();
      // The only group in flight is busy: these three queue and go together.
      Future<Optional<PayFlow>> fa =
          pool.submit(() -> commits.submit(byWorker(a, FlowStatus.PAYED, "mover", now)));
      Future<Optional<PayFlow>> fr =
          pool.submit(
              () -> commits.submit(byWorker(refused, FlowStatus.BIZ_SUCCESS, "mover", now)));
      Future<Optional<PayFlow>> fc =
          pool.submit(() -> commits.submit(byWorker(c, FlowStatus.PAYED, "mover", now)));
      Thread.sleep(300);
      release.countDown();

      assertThat(f0.get(10, TimeUnit.SECONDS)).isPresent();
      assertThat(fa.get(10, TimeUnit.SECONDS).orElseThrow().status()).isEqualTo(FlowStatus.PAYED);
      assertThat(fc.get(10, TimeUnit.SECONDS).orElseThrow().status()).isEqualTo(FlowStatus.PAYED);
      assertThatThrownBy(() -> fr.get(10, TimeUnit.SECONDS))
          .hasCauseInstanceOf(StoreException.class);
    } finally {
      pool.shutdownNow();
    }
    assertThat(groupSizes).containsExactly(3);
    assertThat(reload(a).status()).isEqualTo(FlowStatus.PAYED);
    assertThat(reload(c).status()).isEqualTo(FlowStatus.PAYED);
    assertThat(reload(refused)).isEqualTo(refused);
    assertThat(history(refused.id())).hasSize(2);
  }

  @Test
  void aPageWithOneStaleVersionCommitsTheOthersAndReportsTheStaleOne() throws Exception {
    Instant now = now();
    PayFlow a = paying(now, "mover");
    PayFlow stale = paying(now, "mover");
    PayFlow c = paying(now, "mover");
    // Someone else moved "stale" after the page read it: its version is no longer the page's.
    PayFlow movedMeanwhile =
        store().transition(byWorker(stale, FlowStatus.PAYED, "mover", now)).orElseThrow();
    long events = count("SELECT count(*) FROM outbox_event");

    List<Optional<PayFlow>> results =
        store()
            .transitions(
                List.of(
                    byWorker(a, FlowStatus.PAYED, "mover", now),
                    byWorker(stale, FlowStatus.PAYED, "mover", now),
                    byWorker(c, FlowStatus.PAY_FAIL, "mover", now)));

    assertThat(results).hasSize(3);
    assertThat(results.get(0).orElseThrow().status()).isEqualTo(FlowStatus.PAYED);
    assertThat(results.get(0).orElseThrow().version()).isEqualTo(a.version() + 1);
    assertThat(results.get(1)).as("the stale write is reported, nothing written").isEmpty();
    assertThat(results.get(2).orElseThrow().status()).isEqualTo(FlowStatus.PAY_FAIL);
    assertThat(results.get(2).orElseThrow().leaseOwner()).as("terminal: released").isNull();
    assertThat(reload(a)).isEqualTo(results.get(0).orElseThrow());
    assertThat(reload(stale)).isEqualTo(movedMeanwhile);
    assertThat(reload(c)).isEqualTo(results.get(2).orElseThrow());
    // One history row per written transition; an outbox event for each state that states a fact.
    assertThat(history(a.id())).hasSize(3);
    assertThat(history(stale.id())).hasSize(3);
    assertThat(history(c.id())).hasSize(3);
    assertThat(history(c.id()).get(2).toString()).contains("PAYING", "PAY_FAIL", "rq-" + c.id());
    assertThat(count("SELECT count(*) FROM outbox_event")).isEqualTo(events + 2);
  }

  @Test
  void aPageWriteWhoseLeaseWasLostIsFencedWhileTheOthersCommit() throws Exception {
    Instant now = now();
    PayFlow held = paying(now, "mover");
    PayFlow takenOver = paying(now, "taker"); // "mover" lost this lease after its claim

    List<Optional<PayFlow>> results =
        store()
            .transitions(
                List.of(
                    byWorker(takenOver, FlowStatus.PAYED, "mover", now),
                    byWorker(held, FlowStatus.PAYED, "mover", now)));

    assertThat(results.get(0)).as("fenced by the lease").isEmpty();
    assertThat(results.get(1).orElseThrow().status()).isEqualTo(FlowStatus.PAYED);
    assertThat(reload(takenOver)).isEqualTo(takenOver);
    assertThat(leaseOwner(takenOver.id())).isEqualTo("taker");
    assertThat(history(takenOver.id())).hasSize(2);
    assertThat(history(held.id())).hasSize(3);
  }

  @Test
  void aPageLargerThanOneGroupIsWrittenWhole() throws Exception {
    Instant now = now();
    List<PayFlow> flows = new ArrayList<>();
    for (int i = 0; i < TransitionGroup.MAX_SIZE + 3; i++) {
      flows.add(paying(now, "mover"));
    }
    long before = StoreFixtures.historyCount();

    List<Optional<PayFlow>> results =
        store()
            .transitions(
                flows.stream().map(f -> byWorker(f, FlowStatus.PAYED, "mover", now)).toList());

    assertThat(results).hasSize(flows.size()).allMatch(Optional::isPresent);
    for (int i = 0; i < flows.size(); i++) {
      assertThat(results.get(i).orElseThrow().id()).isEqualTo(flows.get(i).id());
    }
    assertThat(StoreFixtures.historyCount()).isEqualTo(before + flows.size());
  }

  @Test
  void twoWritesOfOneFlowInOnePageAreRefused() {
    Instant now = now();
    PayFlow f = paying(now, "mover");
    assertThatThrownBy(
            () ->
                store()
                    .transitions(
                        List.of(
                            byWorker(f, FlowStatus.PAYED, "mover", now),
                            byWorker(f, FlowStatus.PAY_FAIL, "mover", now))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(reload(f)).isEqualTo(f);
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
