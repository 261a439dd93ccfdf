package dev.clearway.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.engine.Advancer;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.engine.PaymentService;
import dev.clearway.core.flow.port.EngineEvents;
import dev.clearway.core.flow.port.EntryLock;
import dev.clearway.core.flow.port.WakeupScheduler;
import dev.clearway.core.runtime.LeaseTokens;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimBusiness;
import dev.clearway.sim.SimWallet;
import dev.clearway.store.JdbcFlowStore;
import dev.clearway.store.testing.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The idempotency storm with the Redis entry lock pointing at a closed port: every request (each
 * with its own Idempotency-Key, so nothing deduplicates them before the engine) gets no lock, and
 * the database's unique keys and compare-and-set alone still give one live flow per goal.
 */
class EntryStormTest {
  private static final int GOALS = 4;
  private static final int REQUESTS_PER_GOAL = 12;

  private final TestDatabase db = TestDatabase.get();

  @BeforeEach
  void reset() {
    db.reset();
  }

  @Test
  void oneFlowPerGoalWithoutTheLock() throws Exception {
    Clock clock = Clock.systemUTC();
    JdbcFlowStore store = db.store();
    EngineConfig config = EngineConfig.compressed();
    LeaseTokens leases = new LeaseTokens("storm", clock, config);
    Advancer advancer =
        new Advancer(
            store,
            new SimWallet(FaultPlan.none(), clock),
            new SimBusiness(FaultPlan.none(), clock),
            WakeupScheduler.NONE,
            EngineEvents.NONE,
            leases,
            config,
            clock);
    PaymentService payments = new PaymentService(store, advancer, leases, clock);
    ExecutorService pool = Executors.newFixedThreadPool(GOALS * REQUESTS_PER_GOAL);
    try (RedisLink link = RedisLink.of(RedisDownTest.CLOSED_PORT)) {
      EntryLock lock = RedisEntryLock.withDefaultTtl(link);
      CountDownLatch go = new CountDownLatch(1);
      Set<Long> createdIds = ConcurrentHashMap.newKeySet();
      List<Future<Long>> answers = new ArrayList<>();
      for (int g = 0; g < GOALS; g++) {
        GoalKey goal = new GoalKey("m1", 100 + g, "renewal", "goal-" + g);
        NewPayment payment =
            new NewPayment(goal, 990, "CNY", clock.instant().plus(1, ChronoUnit.HOURS));
        for (int r = 0; r < REQUESTS_PER_GOAL; r++) {
          answers.add(pool.submit(entry(lock, payments, payment, go, createdIds)));
        }
      }
      go.countDown();
      List<Long> flowIds = new ArrayList<>();
      for (Future<Long> answer : answers) {
        flowIds.add(answer.get());
      }

      assertThat(link.fallbacks(RedisLink.LOCK)).isEqualTo(GOALS * REQUESTS_PER_GOAL);
      assertThat(createdIds).hasSize(GOALS);
      assertThat(Set.copyOf(flowIds)).isEqualTo(createdIds);
      for (int g = 0; g < GOALS; g++) {
        List<PayFlow> flows = store.findByGoal(new GoalKey("m1", 100 + g, "renewal", "goal-" + g));
        assertThat(flows).as("goal %d", g).hasSize(1);
        assertThat(flows.get(0).status()).isNotEqualTo(FlowStatus.PAY_FAIL);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** One request at the entry, as the API runs it: the lock if had, then the payment. */
  private static Callable<Long> entry(
      EntryLock lock,
      PaymentService payments,
      NewPayment payment,
      CountDownLatch go,
      Set<Long> createdIds) {
    return () -> {
      go.await();
      Optional<EntryLock.Held> held = lock.tryLock(payment.goal(), Duration.ofMillis(200));
      assertThat(held).isEmpty();
      PaymentService.Started started = payments.start(payment);
      if (started.created()) {
        createdIds.add(started.flow().id());
      }
      return started.flow().id();
    };
  }
}
