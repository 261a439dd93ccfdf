package dev.clearway.store;

import static dev.clearway.store.StoreFixtures.created;
import static dev.clearway.store.StoreFixtures.history;
import static dev.clearway.store.StoreFixtures.insertRaw;
import static dev.clearway.store.StoreFixtures.lease;
import static dev.clearway.store.StoreFixtures.move;
import static dev.clearway.store.StoreFixtures.newGoal;
import static dev.clearway.store.StoreFixtures.now;
import static dev.clearway.store.StoreFixtures.payment;
import static dev.clearway.store.StoreFixtures.race;
import static dev.clearway.store.StoreFixtures.reload;
import static dev.clearway.store.StoreFixtures.store;
import static dev.clearway.store.StoreFixtures.walk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.ReviewState;
import dev.clearway.core.flow.port.FlowStore.CreateResult;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.store.StoreFixtures.HistoryRow;
import dev.clearway.store.testing.TestDatabase;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** createAttempt and assignOrderNumbers against a real PostgreSQL. */
@Tag(TestDatabase.MYSQL_FAMILY)
class JdbcFlowStoreCreateTest {

  @BeforeEach
  void reset() {
    TestDatabase.get().reset();
  }

  @Test
  void createAttemptDerivesNumbersFromTheIdAndWritesTheCreationHistory() throws Exception {
    Instant now = now();
    GoalKey goal = newGoal();
    NewPayment payment = payment(goal, now);
    Lease lease = lease("creator/1", now);

    CreateResult result = store().createAttempt(payment, lease, now);

    assertThat(result.created()).isTrue();
    PayFlow f = result.flow();
    OrderNumbers expected = OrderNumbers.derive(goal.userId(), f.id());
    assertThat(f.tradeOrderNo()).isEqualTo(expected.tradeOrderNo());
    assertThat(f.refundOrderNo()).isEqualTo(expected.refundOrderNo());
    assertThat(f.refundOrderNo()).isEqualTo("r_" + f.tradeOrderNo());
    assertThat(f.goal()).isEqualTo(goal);
    assertThat(f.attemptNo()).isEqualTo(1);
    assertThat(f.status()).isEqualTo(FlowStatus.WAIT_PAY);
    assertThat(f.version()).isZero();
    assertThat(f.amount()).isEqualTo(payment.amount());
    assertThat(f.currency()).isEqualTo(payment.currency());
    assertThat(f.bizDeadline()).isEqualTo(payment.bizDeadline());
    assertThat(f.retryCount()).isZero();
    assertThat(f.reviewState()).isEqualTo(ReviewState.NONE);
    assertThat(f.lastErrorCode()).isNull();
    // held by the creation lease so that the creating caller can advance it at once
    assertThat(f.leaseOwner()).isEqualTo(lease.token());
    assertThat(f.nextRetryTime()).isEqualTo(lease.until());
    assertThat(f.createdAt()).isEqualTo(now);
    assertThat(f.updatedAt()).isEqualTo(now);
    // what was returned is what the primary has
    assertThat(reload(f)).isEqualTo(f);

    List<HistoryRow> history = history(f.id());
    assertThat(history).hasSize(1);
    HistoryRow h = history.get(0);
    assertThat(h.fromStatus()).isNull();
    assertThat(h.toStatus()).isEqualTo("WAIT_PAY");
    assertThat(h.version()).isZero();
    assertThat(h.attemptNo()).isEqualTo(1);
    assertThat(h.bizKey()).isEqualTo(goal.bizKey());
    assertThat(h.tradeOrderNo()).isEqualTo(expected.tradeOrderNo());
    assertThat(h.refundOrderNo()).isEqualTo(expected.refundOrderNo());
    assertThat(h.triggerSource()).isEqualTo("SYNC");
    assertThat(h.createdAt()).isEqualTo(now);
  }

  @Test
  void idsAndNumbersDifferPerAttemptAndPerGoal() {
    Instant now = now();
    PayFlow a = created(now);
    PayFlow b = created(now);
    assertThat(a.id()).isNotEqualTo(b.id());
    assertThat(a.tradeOrderNo()).isNotEqualTo(b.tradeOrderNo());
    assertThat(a.refundOrderNo()).isNotEqualTo(b.refundOrderNo());
  }

  @Test
  void aSecondCreateWhileTheFirstIsLiveReturnsTheLiveOne() throws Exception {
    Instant now = now();
    GoalKey goal = newGoal();
    PayFlow first = store().createAttempt(payment(goal, now), lease("a", now), now).flow();

    Instant later = now.plusSeconds(2);
    CreateResult again = store().createAttempt(payment(goal, later), lease("b", later), later);

    assertThat(again.created()).isFalse();
    assertThat(again.flow()).isEqualTo(first);
    assertThat(store().findByGoal(goal)).containsExactly(first);
    assertThat(history(first.id())).hasSize(1);
  }

  @ParameterizedTest(name = "a goal whose attempt is {0} gets no new attempt")
  @EnumSource(
      value = FlowStatus.class,
      names = {"PAYING", "PAYED", "BIZ_SUCCESS", "REFUNDING", "REFUNDED"})
  void noNewAttemptUnlessTheLastOneDefinitelyFailed(FlowStatus reached) {
    Instant now = now();
    GoalKey goal = newGoal();
    PayFlow first = store().createAttempt(payment(goal, now), lease("a", now), now).flow();
    PayFlow at =
        switch (reached) {
          case PAYING -> walk(first, now, FlowStatus.PAYING);
          case PAYED -> walk(first, now, FlowStatus.PAYING, FlowStatus.PAYED);
          case BIZ_SUCCESS ->
              walk(first, now, FlowStatus.PAYING, FlowStatus.PAYED, FlowStatus.BIZ_SUCCESS);
          case REFUNDING ->
              walk(first, now, FlowStatus.PAYING, FlowStatus.PAYED, FlowStatus.REFUNDING);
          case REFUNDED ->
              walk(
                  first,
                  now,
                  FlowStatus.PAYING,
                  FlowStatus.PAYED,
                  FlowStatus.REFUNDING,
                  FlowStatus.REFUNDED);
          default -> throw new IllegalArgumentException(reached.name());
        };

    CreateResult again = store().createAttempt(payment(goal, now), lease("b", now), now);

    assertThat(again.created()).isFalse();
    assertThat(again.flow().id()).isEqualTo(first.id());
    assertThat(again.flow().status()).isEqualTo(reached);
    assertThat(again.flow()).isEqualTo(reload(at));
    assertThat(store().findByGoal(goal)).hasSize(1);
  }

  @Test
  void afterPayFailANewAttemptGetsAttemptNoTwo() throws Exception {
    Instant now = now();
    GoalKey goal = newGoal();
    PayFlow first = store().createAttempt(payment(goal, now), lease("a", now), now).flow();
    PayFlow failed = walk(first, now, FlowStatus.PAYING, FlowStatus.PAY_FAIL);
    assertThat(failed.status()).isEqualTo(FlowStatus.PAY_FAIL);

    Instant later = now.plusSeconds(5);
    CreateResult second = store().createAttempt(payment(goal, later), lease("b", later), later);

    assertThat(second.created()).isTrue();
    PayFlow s = second.flow();
    assertThat(s.id()).isNotEqualTo(first.id());
    assertThat(s.attemptNo()).isEqualTo(2);
    assertThat(s.status()).isEqualTo(FlowStatus.WAIT_PAY);
    assertThat(s.version()).isZero();
    assertThat(s.tradeOrderNo())
        .isEqualTo(OrderNumbers.derive(goal.userId(), s.id()).tradeOrderNo())
        .isNotEqualTo(first.tradeOrderNo());
    assertThat(s.refundOrderNo())
        .isEqualTo(OrderNumbers.derive(goal.userId(), s.id()).refundOrderNo());
    assertThat(history(s.id()))
        .singleElement()
        .satisfies(
            h -> {
              assertThat(h.fromStatus()).isNull();
              assertThat(h.toStatus()).isEqualTo("WAIT_PAY");
              assertThat(h.version()).isZero();
              assertThat(h.attemptNo()).isEqualTo(2);
            });
    assertThat(store().findByGoal(goal))
        .extracting(PayFlow::attemptNo, PayFlow::status)
        .containsExactly(tuple(1, FlowStatus.PAY_FAIL), tuple(2, FlowStatus.WAIT_PAY));

    // the second attempt is live now: a third create returns it
    CreateResult third = store().createAttempt(payment(goal, later), lease("c", later), later);
    assertThat(third.created()).isFalse();
    assertThat(third.flow().id()).isEqualTo(s.id());
  }

  @Test
  void afterClosedANewAttemptIsCreatedToo() {
    Instant now = now();
    GoalKey goal = newGoal();
    PayFlow first = store().createAttempt(payment(goal, now), lease("a", now), now).flow();
    move(first, FlowStatus.CLOSED, now);

    CreateResult second = store().createAttempt(payment(goal, now), lease("b", now), now);

    assertThat(second.created()).isTrue();
    assertThat(second.flow().attemptNo()).isEqualTo(2);
  }

  @Test
  void concurrentCreatesOfOneGoalYieldExactlyOneLiveAttempt() throws Exception {
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int round = 0; round < 10; round++) {
        GoalKey goal = newGoal();
        Instant now = now();
        List<CreateResult> results =
            race(
                pool,
                threads,
                i -> store().createAttempt(payment(goal, now), lease("t" + i, now), now));

        assertThat(results).filteredOn(CreateResult::created).hasSize(1);
        long liveId =
            results.stream().filter(CreateResult::created).findFirst().orElseThrow().flow().id();
        assertThat(results).allSatisfy(r -> assertThat(r.flow().id()).isEqualTo(liveId));
        assertThat(store().findByGoal(goal))
            .singleElement()
            .satisfies(
                f -> {
                  assertThat(f.attemptNo()).isEqualTo(1);
                  assertThat(f.hasOrderNumbers()).isTrue();
                });
        assertThat(history(liveId)).hasSize(1);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void concurrentRetriesAfterAPayFailYieldExactlyOneSecondAttempt() throws Exception {
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int round = 0; round < 5; round++) {
        GoalKey goal = newGoal();
        Instant now = now();
        PayFlow first = store().createAttempt(payment(goal, now), lease("a", now), now).flow();
        walk(first, now, FlowStatus.PAYING, FlowStatus.PAY_FAIL);

        List<CreateResult> results =
            race(
                pool,
                threads,
                i -> store().createAttempt(payment(goal, now), lease("t" + i, now), now));

        assertThat(results).filteredOn(CreateResult::created).hasSize(1);
        assertThat(results).allSatisfy(r -> assertThat(r.flow().attemptNo()).isEqualTo(2));
        assertThat(store().findByGoal(goal)).extracting(PayFlow::attemptNo).containsExactly(1, 2);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  // ---- assignOrderNumbers --------------------------------------------------------------------

  @Test
  void assignOrderNumbersRepairsARowLeftWithoutNumbersWithTheDerivedOnes() throws Exception {
    GoalKey goal = newGoal();
    // a crash between the INSERT and the UPDATE of createAttempt leaves this behind
    long id = insertRaw(goal, 1, FlowStatus.WAIT_PAY, now());
    PayFlow crashed = store().find(id).orElseThrow();
    assertThat(crashed.hasOrderNumbers()).isFalse();
    assertThat(crashed.tradeOrderNo()).isNull();
    assertThat(crashed.refundOrderNo()).isNull();

    Instant repairAt = now().plusSeconds(1);
    OrderNumbers derived = OrderNumbers.derive(goal.userId(), id);
    store().assignOrderNumbers(id, derived, repairAt);

    PayFlow repaired = store().find(id).orElseThrow();
    assertThat(repaired.tradeOrderNo()).isEqualTo(derived.tradeOrderNo());
    assertThat(repaired.refundOrderNo()).isEqualTo(derived.refundOrderNo());
    assertThat(repaired.updatedAt()).isEqualTo(repairAt);
    assertThat(repaired.status()).isEqualTo(crashed.status());
    assertThat(repaired.version()).isEqualTo(crashed.version());

    // a second call (a peer repairing the same row) changes nothing, not even updated_at
    store().assignOrderNumbers(id, derived, repairAt.plusSeconds(10));
    assertThat(store().find(id).orElseThrow()).isEqualTo(repaired);

    // nor does a call that brings different numbers: written numbers are never replaced
    store()
        .assignOrderNumbers(id, new OrderNumbers("t_other", "r_t_other"), repairAt.plusSeconds(20));
    assertThat(store().find(id).orElseThrow()).isEqualTo(repaired);
  }

  @Test
  void theRepairedNumbersAreThoseCreateAttemptWouldHaveWritten() throws Exception {
    Instant now = now();
    PayFlow normal = created(now);
    assertThat(normal.tradeOrderNo())
        .isEqualTo(OrderNumbers.derive(normal.goal().userId(), normal.id()).tradeOrderNo());

    PayFlow before = reload(normal);
    store()
        .assignOrderNumbers(
            normal.id(),
            OrderNumbers.derive(normal.goal().userId(), normal.id()),
            now.plusSeconds(1));
    assertThat(reload(normal)).isEqualTo(before);
  }
}
