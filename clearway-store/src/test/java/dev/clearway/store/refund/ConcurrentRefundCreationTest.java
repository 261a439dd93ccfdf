package dev.clearway.store.refund;

import static dev.clearway.store.refund.RefundFixtures.PAID;
import static dev.clearway.store.refund.RefundFixtures.bizSuccess;
import static dev.clearway.store.refund.RefundFixtures.count;
import static dev.clearway.store.refund.RefundFixtures.lease;
import static dev.clearway.store.refund.RefundFixtures.now;
import static dev.clearway.store.refund.RefundFixtures.refunds;
import static dev.clearway.store.refund.RefundFixtures.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.refund.domain.NewRefund;
import dev.clearway.core.refund.port.RefundStore.CreateOutcome;
import dev.clearway.store.testing.TestDatabase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Concurrent refund requests on one flow: the flow row lock serialises them, so the refunds that
 * are accepted never add up to more than was paid, and one key never yields two refunds.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class ConcurrentRefundCreationTest {
  private static final int THREADS = 8;
  private static ExecutorService pool;

  @BeforeAll
  static void startPool() {
    pool = Executors.newFixedThreadPool(THREADS);
  }

  @AfterAll
  static void stopPool() {
    pool.shutdownNow();
  }

  @BeforeEach
  void reset() {
    RefundFixtures.reset();
  }

  /** Runs {@code n} creations released at once by one latch. */
  private static List<CreateOutcome> race(IntFunction<NewRefund> requests) throws Exception {
    CountDownLatch ready = new CountDownLatch(THREADS);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<CreateOutcome>> futures = new ArrayList<>();
    for (int i = 0; i < THREADS; i++) {
      NewRefund request = requests.apply(i);
      Callable<CreateOutcome> task =
          () -> {
            ready.countDown();
            go.await();
            Instant now = now();
            return refunds().create(request, lease("c-" + request.idempotencyKey(), now), now);
          };
      futures.add(pool.submit(task));
    }
    assertThat(ready.await(10, TimeUnit.SECONDS)).isTrue();
    go.countDown();
    List<CreateOutcome> outcomes = new ArrayList<>();
    for (Future<CreateOutcome> f : futures) {
      outcomes.add(f.get(60, TimeUnit.SECONDS));
    }
    return outcomes;
  }

  @RepeatedTest(5)
  void eightRequestsWhoseSumExceedsThePaymentNeverOverRefund() throws Exception {
    PayFlow flow = bizSuccess(now());
    // 8 x 600 = 4800 asked for against 1999 paid: exactly three fit.
    List<CreateOutcome> outcomes = race(i -> request(flow, 600, "k-" + i));

    long accepted = outcomes.stream().filter(o -> o instanceof CreateOutcome.Created).count();
    long refused = outcomes.stream().filter(o -> o instanceof CreateOutcome.ExceedsPayment).count();
    assertThat(accepted).isEqualTo(3);
    assertThat(refused).isEqualTo(THREADS - 3);
    long sum =
        count("SELECT COALESCE(SUM(amount), 0) FROM refund_order WHERE flow_id = ?", flow.id());
    assertThat(sum).isEqualTo(1_800).isLessThanOrEqualTo(PAID);
    assertThat(count("SELECT count(DISTINCT seq) FROM refund_order WHERE flow_id = ?", flow.id()))
        .isEqualTo(3);
    assertThat(count("SELECT max(seq) FROM refund_order WHERE flow_id = ?", flow.id()))
        .isEqualTo(3);
    assertThat(count("SELECT count(*) FROM refund_order_history")).isEqualTo(3);
  }

  @RepeatedTest(5)
  void mixedAmountsFillThePaymentAtMost() throws Exception {
    PayFlow flow = bizSuccess(now());
    long[] amounts = {900, 700, 500, 400, 300, 200, 100, 1_999};

    List<CreateOutcome> outcomes = race(i -> request(flow, amounts[i], "m-" + i));

    long acceptedSum =
        outcomes.stream()
            .filter(o -> o instanceof CreateOutcome.Created)
            .mapToLong(o -> ((CreateOutcome.Created) o).refund().amount())
            .sum();
    assertThat(acceptedSum).isLessThanOrEqualTo(PAID);
    assertThat(
            count("SELECT COALESCE(SUM(amount), 0) FROM refund_order WHERE flow_id = ?", flow.id()))
        .isEqualTo(acceptedSum);
    // every refusal was right when it was made: what it asked for did not fit into what was left
    for (CreateOutcome o : outcomes) {
      if (o instanceof CreateOutcome.ExceedsPayment e) {
        assertThat(e.paid()).isEqualTo(PAID);
        assertThat(e.held()).isLessThanOrEqualTo(acceptedSum);
      }
    }
  }

  @Test
  void oneKeyRacedEightTimesMakesOneRefund() throws Exception {
    PayFlow flow = bizSuccess(now());

    List<CreateOutcome> outcomes = race(i -> request(flow, 250, "same-key"));

    assertThat(outcomes.stream().filter(o -> o instanceof CreateOutcome.Created)).hasSize(1);
    assertThat(outcomes.stream().filter(o -> o instanceof CreateOutcome.Replayed))
        .hasSize(THREADS - 1);
    assertThat(count("SELECT count(*) FROM refund_order")).isEqualTo(1);
  }

  @RepeatedTest(5)
  void oneKeyRacedForTheWholePaymentIsReplayedNotRefusedAsAnOverRefund() throws Exception {
    PayFlow flow = bizSuccess(now());

    // A request that read "no such key" before the first one committed then waits for the flow
    // lock; under the lock it must find the key (a replay), not count the amount twice.
    List<CreateOutcome> outcomes = race(i -> request(flow, PAID, "full-key"));

    assertThat(outcomes.stream().filter(o -> o instanceof CreateOutcome.Created)).hasSize(1);
    assertThat(outcomes.stream().filter(o -> o instanceof CreateOutcome.Replayed))
        .hasSize(THREADS - 1);
  }

  @Test
  void oneKeyRacedWithMixedParametersMakesOneRefundAndRefusesTheOthers() throws Exception {
    PayFlow flow = bizSuccess(now());

    List<CreateOutcome> outcomes = race(i -> request(flow, 100 + (i % 2), "mixed-key"));

    assertThat(outcomes.stream().filter(o -> o instanceof CreateOutcome.Created)).hasSize(1);
    long winner =
        outcomes.stream()
            .filter(o -> o instanceof CreateOutcome.Created)
            .mapToLong(o -> ((CreateOutcome.Created) o).refund().amount())
            .sum();
    for (int i = 0; i < THREADS; i++) {
      CreateOutcome o = outcomes.get(i);
      if (!(o instanceof CreateOutcome.Created)) {
        assertThat(o)
            .isInstanceOf(
                100 + (i % 2) == winner
                    ? CreateOutcome.Replayed.class
                    : CreateOutcome.KeyReused.class);
      }
    }
    assertThat(count("SELECT count(*) FROM refund_order")).isEqualTo(1);
  }
}
