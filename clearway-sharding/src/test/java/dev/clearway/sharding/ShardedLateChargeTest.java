package dev.clearway.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.latecharge.domain.SuspicionSource;
import dev.clearway.core.latecharge.port.LateChargeStore.Suspected;
import dev.clearway.core.latecharge.port.SweepStore.Cursor;
import dev.clearway.core.latecharge.port.SweepStore.EndedFlow;
import dev.clearway.store.Database;
import dev.clearway.store.JdbcCallbackInbox;
import dev.clearway.store.JdbcFlowStore;
import dev.clearway.store.latecharge.JdbcLateChargeStore;
import dev.clearway.store.latecharge.JdbcSweepStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Late charges on the sharded URL: a suspicion about a flow on any shard reads the flow by its id
 * and lands in the single late_charge_check on ds_0 (the global queue the late-charge worker
 * claims); a callback about such a flow stores its event with the flow's merchant and the suspicion
 * in one transaction on ds_0; the sweep pages the ended flows of every shard in the order they
 * ended.
 */
@Tag(ShardedTestDatabase.SHARDING)
class ShardedLateChargeTest {

  private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");
  private final ShardedTestDatabase db = ShardedTestDatabase.get();
  private final Database database = db.database();
  private final JdbcFlowStore flows = new JdbcFlowStore(database.dataSource(), database.dialect());
  private final JdbcLateChargeStore checks =
      new JdbcLateChargeStore(database.dataSource(), database.dialect());

  @BeforeEach
  void clean() {
    db.truncate(ShardedTestDatabase.FLOW_TABLES);
    db.physical(0, "TRUNCATE TABLE late_charge_check");
    db.physical(0, "TRUNCATE TABLE callback_inbox");
  }

  /** A flow on {@code shard} moved through {@code path}, each step {@code step} apart. */
  private PayFlow flowOn(int shard, String bizKey, Instant at, FlowStatus... path) {
    GoalKey goal = ShardedGoals.on(shard, bizKey);
    return FlowPaths.along(
        flows, new NewPayment(goal, 1_500L, "EUR", T0.plus(Duration.ofHours(1))), at, path);
  }

  @Test
  void aSuspicionAboutAFlowOnAnyShardLandsInTheSingleQueue() {
    for (int shard = 0; shard < 4; shard++) {
      PayFlow ended = flowOn(shard, "ended-" + shard, T0, FlowStatus.PAYING, FlowStatus.PAY_FAIL);
      Suspected first = checks.suspect(ended.id(), SuspicionSource.SWEEP, T0).orElseThrow();
      assertThat(first.created()).isTrue();
      assertThat(first.check().flowId()).isEqualTo(ended.id());
      assertThat(first.check().tradeOrderNo()).isEqualTo(ended.tradeOrderNo());
      Suspected again = checks.suspect(ended.id(), SuspicionSource.CALLBACK, T0).orElseThrow();
      assertThat(again.created()).isFalse();
      assertThat(again.check().id()).isEqualTo(first.check().id());
    }
    PayFlow paying = flowOn(2, "paying", T0, FlowStatus.PAYING);
    assertThat(checks.suspect(paying.id(), SuspicionSource.SWEEP, T0)).isEmpty();
    assertThat(db.physicalCount(0, "SELECT count(*) FROM late_charge_check")).isEqualTo(4);
    assertThat(
            db.physicalCount(0, "SELECT count(*) FROM late_charge_check WHERE merchant_id = 'm1'"))
        .isEqualTo(4);
  }

  @Test
  void aCallbackAboutAnEndedFlowStoresItsMerchantAndTheSuspicionTogether() {
    PayFlow ended = flowOn(3, "callback", T0, FlowStatus.PAYING, FlowStatus.PAY_FAIL);
    JdbcCallbackInbox inbox = new JdbcCallbackInbox(database.dataSource(), database.dialect());
    JdbcCallbackInbox.Event event =
        new JdbcCallbackInbox.Event(
            "wallet",
            "evt-1",
            "PAYMENT",
            ended.tradeOrderNo(),
            null,
            ended.id(),
            "ACCEPTED",
            "a".repeat(64),
            T0);
    assertThat(inbox.store(event)).isTrue();
    assertThat(inbox.store(event)).as("a replay").isFalse();
    assertThat(
            inbox.store(
                new JdbcCallbackInbox.Event(
                    "wallet",
                    "evt-2",
                    "PAYMENT",
                    "t_unknown",
                    null,
                    null,
                    "UNKNOWN_ORDER",
                    "b".repeat(64),
                    T0)))
        .isTrue();
    assertThat(
            db.physicalCount(
                0,
                "SELECT count(*) FROM callback_inbox WHERE event_id = 'evt-1' AND merchant_id = 'm1'"))
        .isEqualTo(1);
    assertThat(
            db.physicalCount(
                0,
                "SELECT count(*) FROM callback_inbox WHERE event_id = 'evt-2' AND merchant_id IS NULL"))
        .isEqualTo(1);
    assertThat(checks.findByFlow(ended.id()))
        .map(c -> c.source())
        .contains(SuspicionSource.CALLBACK);
  }

  @Test
  void theSweepPagesTheEndedFlowsOfEveryShardInTheirOrder() {
    List<PayFlow> ended = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      // Two flows per shard, ending at one of three instants, so the cursor's id breaks ties.
      ended.add(
          flowOn(
              i % 4, "sweep-" + i, T0.plusSeconds(i % 3), FlowStatus.PAYING, FlowStatus.PAY_FAIL));
    }
    flowOn(1, "still-paying", T0, FlowStatus.PAYING);
    JdbcSweepStore sweep = new JdbcSweepStore(database.dataSource(), database.dialect());
    Instant upTo = T0.plusSeconds(60);
    Cursor cursor = new Cursor(T0.minusSeconds(1), 0);
    assertThat(sweep.countEnded(cursor, upTo)).isEqualTo(8);
    List<EndedFlow> seen = new ArrayList<>();
    for (List<EndedFlow> page = sweep.endedFlows(cursor, upTo, 3);
        !page.isEmpty();
        page = sweep.endedFlows(cursor, upTo, 3)) {
      assertThat(page).hasSizeLessThanOrEqualTo(3);
      seen.addAll(page);
      EndedFlow last = page.get(page.size() - 1);
      cursor = new Cursor(last.endedAt(), last.flowId());
    }
    List<Long> expected =
        ended.stream()
            .sorted(
                Comparator.comparing((PayFlow f) -> f.updatedAt()).thenComparingLong(PayFlow::id))
            .map(PayFlow::id)
            .toList();
    assertThat(seen).extracting(EndedFlow::flowId).containsExactlyElementsOf(expected);
    assertThat(seen.stream().map(e -> ShardKeys.ofId(e.flowId())).distinct())
        .containsExactlyInAnyOrder(0, 1, 2, 3);
    EndedFlow last = seen.get(seen.size() - 1);
    assertThat(sweep.countEnded(new Cursor(last.endedAt(), last.flowId()), upTo)).isZero();
  }
}
