package dev.clearway.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore.CreateResult;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.flow.port.FlowStore.TransitionWrite;
import dev.clearway.core.outbox.OutboxEvent;
import dev.clearway.store.Database;
import dev.clearway.store.JdbcFlowStore;
import dev.clearway.store.JdbcOutboxStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The flow store on the sharded URL: a payment's whole life (creation, transitions with their
 * history and outbox events, reads by id, order number and goal) reaches its owner's shard only,
 * the scanner's claim round covers every shard, and one goal has one live attempt.
 */
@Tag(ShardedTestDatabase.SHARDING)
class ShardedFlowStoreTest {

  private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");
  private static final Pattern PHYSICAL = Pattern.compile("\\b([a-z_]+)_(\\d)\\b");
  private final ShardedTestDatabase db = ShardedTestDatabase.get();
  private final Database database = db.database();
  private final JdbcFlowStore store = new JdbcFlowStore(database.dataSource(), database.dialect());

  @BeforeEach
  void clean() {
    db.truncate(ShardedTestDatabase.FLOW_TABLES);
  }

  private static NewPayment payment(GoalKey goal) {
    return new NewPayment(goal, 1_999L, "EUR", T0.plus(Duration.ofHours(1)));
  }

  private static TransitionWrite write(PayFlow from, FlowStatus to) {
    return new TransitionWrite(
        from,
        to,
        null,
        to.isTerminal() ? T0 : T0.plusSeconds(30),
        to.isTerminal() ? null : "mover",
        new HistoryNote(TriggerSource.MANUAL, null, "TEST", 0),
        T0,
        from.leaseOwner());
  }

  /** The shard (2 * database + table) of a statement's only physical route. */
  private static int shardOf(SqlLog.Routed statement) {
    assertThat(statement.actual()).as(statement.logic()).hasSize(1);
    String route = statement.actual().get(0);
    Matcher m = PHYSICAL.matcher(route);
    assertThat(m.find(route.indexOf(":::"))).as(route).isTrue();
    return Integer.parseInt(route.substring(3, 4)) * 2 + Integer.parseInt(m.group(2));
  }

  @Test
  void aPaymentsWholeLifeReachesItsOwnersShardOnly() {
    for (int shard = 0; shard < 4; shard++) {
      GoalKey goal = ShardedGoals.on(shard, "life-" + shard);
      List<PayFlow> end = new ArrayList<>();
      List<SqlLog.Routed> log =
          SqlLog.capture(
              () -> {
                PayFlow f =
                    store
                        .createAttempt(payment(goal), new Lease("creator", T0.plusSeconds(30)), T0)
                        .flow();
                for (FlowStatus to :
                    new FlowStatus[] {
                      FlowStatus.PAYING, FlowStatus.PAYED, FlowStatus.BIZ_SUCCESS
                    }) {
                  f = store.transition(write(f, to)).orElseThrow();
                }
                end.add(store.find(f.id()).orElseThrow());
                end.add(store.findByOrderNo(f.tradeOrderNo()).orElseThrow());
                end.add(store.findByGoal(goal).get(0));
                return f;
              });
      PayFlow f = end.get(0);
      System.out.printf(
          "sharded flow on shard %d: %d statements, each on one physical table%n",
          shard, log.size());
      assertThat(f.status()).isEqualTo(FlowStatus.BIZ_SUCCESS);
      assertThat(f.id() >>> 48).as("the flow id carries its owner's shard").isEqualTo(shard);
      assertThat(end).extracting(PayFlow::id).containsOnly(f.id());
      assertThat(log).hasSizeGreaterThanOrEqualTo(4 + 4 * 3);
      for (SqlLog.Routed statement : log) {
        assertThat(shardOf(statement)).as(statement.actual().get(0)).isEqualTo(shard);
      }
      int ds = shard / 2;
      int t = shard % 2;
      assertThat(
              db.physicalCount(
                  ds, "SELECT count(*) FROM pay_flow_history_" + t + " WHERE flow_id = " + f.id()))
          .isEqualTo(4);
      assertThat(
              db.physicalCount(
                  ds,
                  "SELECT count(*) FROM outbox_event_"
                      + t
                      + " WHERE aggregate_id = "
                      + f.id()
                      + " AND id >> 48 = "
                      + shard
                      + " AND JSON_VALUE(payload, '$.flowId') = "
                      + f.id()))
          .as("the flow's two events, on its shard")
          .isEqualTo(2);
    }
    long events = 0;
    for (int ds = 0; ds < 2; ds++) {
      for (int t = 0; t < 2; t++) {
        events += db.physicalCount(ds, "SELECT count(*) FROM outbox_event_" + t);
      }
    }
    assertThat(events).isEqualTo(8);
  }

  @Test
  void theScannersClaimRoundCoversEveryShard() {
    Set<Long> created = new HashSet<>();
    for (int shard = 0; shard < 4; shard++) {
      for (int i = 0; i < 3; i++) {
        GoalKey goal = ShardedGoals.on(shard, "scan-" + shard + "-" + i);
        created.add(
            store
                .createAttempt(payment(goal), new Lease("creator", T0.plusSeconds(1)), T0)
                .flow()
                .id());
      }
    }
    Instant later = T0.plusSeconds(60);
    Lease lease = new Lease("scanner", later.plusSeconds(30));
    List<SqlLog.Routed> log = new ArrayList<>();
    List<PayFlow> claimed = new ArrayList<>();
    log.addAll(SqlLog.capture(() -> claimed.addAll(store.claimDueRows(0, 100, lease, later))));

    assertThat(claimed).extracting(PayFlow::id).containsExactlyInAnyOrderElementsOf(created);
    assertThat(claimed).allSatisfy(f -> assertThat(f.leaseOwner()).isEqualTo("scanner"));
    Set<Long> shards = new HashSet<>();
    claimed.forEach(f -> shards.add(f.id() >>> 48));
    assertThat(shards).containsExactlyInAnyOrder(0L, 1L, 2L, 3L);
    assertThat(log.get(0).shards()).as("the page claim runs on every shard").isEqualTo(4);
    assertThat(store.claimDueRows(0, 100, lease, later)).isEmpty();
  }

  @Test
  void concurrentCreationsOfOneGoalLeaveOneLiveAttemptOnEveryShard() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      for (int shard = 0; shard < 4; shard++) {
        GoalKey goal = ShardedGoals.on(shard, "race-" + shard);
        List<Callable<CreateResult>> calls = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
          String token = "creator-" + i;
          calls.add(
              () -> store.createAttempt(payment(goal), new Lease(token, T0.plusSeconds(30)), T0));
        }
        Set<Long> ids = new HashSet<>();
        int fresh = 0;
        for (Future<CreateResult> r : pool.invokeAll(calls)) {
          ids.add(r.get().flow().id());
          fresh += r.get().created() ? 1 : 0;
        }
        assertThat(ids).hasSize(1);
        assertThat(fresh).isEqualTo(1);
        assertThat(store.findByGoal(goal)).hasSize(1);
        assertThat(ids.iterator().next() >>> 48).isEqualTo(shard);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void theRelayLeasesAndPublishesTheEventsOfEveryShard() {
    for (int shard = 0; shard < 4; shard++) {
      PayFlow f =
          store
              .createAttempt(
                  payment(ShardedGoals.on(shard, "relay-" + shard)),
                  new Lease("creator", T0.plusSeconds(30)),
                  T0)
              .flow();
      f = store.transition(write(f, FlowStatus.PAYING)).orElseThrow();
      store.transition(write(f, FlowStatus.PAYED)).orElseThrow();
    }
    JdbcOutboxStore outbox = new JdbcOutboxStore(database.dataSource(), database.dialect());
    assertThat(outbox.pending()).isEqualTo(4);

    List<OutboxEvent> leased = outbox.lease(100, T0, T0.plusSeconds(30));

    assertThat(leased).extracting(e -> e.aggregateId() >>> 48).containsOnly(0L, 1L, 2L, 3L);
    assertThat(leased).hasSize(4);
    assertThat(outbox.lease(100, T0, T0.plusSeconds(30))).as("all leased already").isEmpty();
    for (OutboxEvent e : leased) {
      assertThat(e.id() >>> 48).isEqualTo(e.aggregateId() >>> 48);
      assertThat(outbox.markPublished(e.id(), T0)).isTrue();
    }
    assertThat(outbox.pending()).isZero();
  }
}
