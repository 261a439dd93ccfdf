package dev.clearway.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.refund.domain.NewRefund;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refund.port.RefundStore.CreateOutcome;
import dev.clearway.core.refundbatch.decision.ItemDecision;
import dev.clearway.core.refundbatch.domain.BatchItem;
import dev.clearway.core.refundbatch.domain.BatchScope;
import dev.clearway.core.refundbatch.domain.BatchState;
import dev.clearway.core.refundbatch.domain.ItemOutcome;
import dev.clearway.core.refundbatch.domain.RefundBatch;
import dev.clearway.core.refundbatch.port.RefundBatchCommands.Proposal;
import dev.clearway.core.refundbatch.port.RefundBatchCommands.Result;
import dev.clearway.store.Database;
import dev.clearway.store.JdbcFlowStore;
import dev.clearway.store.refund.JdbcRefundStore;
import dev.clearway.store.refundbatch.JdbcBatchRunStore;
import dev.clearway.store.refundbatch.JdbcRefundBatchCommands;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Refund batches on the sharded URL: the batch and its items are single tables on the first
 * database, the paid flows and their refund orders on the payments' shards. A proposal takes the
 * scene's paid flows of every shard; the runner records a refund order per item, settles the items
 * from their refund orders' statuses, and a later batch finds the flows an earlier one refunded.
 */
@Tag(ShardedTestDatabase.SHARDING)
class ShardedRefundBatchTest {

  private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");

  private final ShardedTestDatabase db = ShardedTestDatabase.get();
  private final Database database = db.database();
  private final JdbcFlowStore flows = new JdbcFlowStore(database.dataSource(), database.dialect());
  private final JdbcRefundStore refunds =
      new JdbcRefundStore(database.dataSource(), database.dialect());
  private final JdbcRefundBatchCommands batches =
      new JdbcRefundBatchCommands(database.dataSource(), database.dialect());
  private final JdbcBatchRunStore runs =
      new JdbcBatchRunStore(database.dataSource(), database.dialect());

  @BeforeEach
  void clean() {
    db.truncate(ShardedTestDatabase.REFUND_AND_FLOW_TABLES);
    db.physical(0, "DELETE FROM refund_batch_audit");
    db.physical(0, "DELETE FROM refund_batch_item");
    db.physical(0, "DELETE FROM refund_batch");
  }

  private PayFlow paidFlowOn(int shard) {
    PayFlow f =
        SucceededFlows.create(flows, ShardedGoals.on(shard, "batch-" + shard), 1_000L + shard, T0);
    return f;
  }

  private RefundOrder refundOf(PayFlow f) {
    CreateOutcome created =
        refunds.create(
            new NewRefund(f.id(), f.amount(), "batch", f.goal().merchant(), "batch-" + f.id()),
            new Lease("refunder", T0.plusSeconds(30)),
            T0);
    return ((CreateOutcome.Created) created).refund();
  }

  private RefundOrder move(RefundOrder from, RefundStatus to) {
    return RefundMoves.move(refunds, from, to, T0);
  }

  private RefundBatch proposeAndRun(String holder) {
    BatchScope scope = new BatchScope("m1", "renew", null, null, null);
    Result proposed = batches.propose(new Proposal(scope, "alice", "T-1", "recall"), T0);
    assertThat(proposed).isInstanceOf(Result.Done.class);
    RefundBatch batch = ((Result.Done) proposed).batch();
    assertThat(batches.approve(batch.id(), "bob", T0)).isInstanceOf(Result.Done.class);
    RefundBatch running =
        runs.claimDue(new Lease(holder, T0.plusSeconds(30)), T0.plusSeconds(1)).orElseThrow();
    assertThat(running.id()).isEqualTo(batch.id());
    return running;
  }

  @Test
  void aBatchRefundsThePaidFlowsOfEveryShardAndSettlesFromTheirRefundOrders() {
    List<PayFlow> paid = new ArrayList<>();
    for (int shard = 0; shard < 4; shard++) {
      paid.add(paidFlowOn(shard));
    }
    RefundBatch batch = proposeAndRun("runner-1");

    assertThat(batch.totalItems()).isEqualTo(4);
    List<BatchItem> items = runs.pendingItems(batch.id(), 0, 10);
    assertThat(items)
        .extracting(BatchItem::flowId)
        .containsExactlyInAnyOrderElementsOf(paid.stream().map(PayFlow::id).toList());
    assertThat(items).extracting(i -> i.flowId() >>> 48).containsExactlyInAnyOrder(0L, 1L, 2L, 3L);
    assertThat(items)
        .allSatisfy(i -> assertThat(i.amount()).isEqualTo(1_000L + (i.flowId() >>> 48)));
    assertThat(runs.markPriorBatchRefunds(batch.id(), "runner-1", T0)).isZero();

    List<RefundOrder> ordered = new ArrayList<>();
    for (BatchItem item : items) {
      PayFlow f = paid.stream().filter(p -> p.id() == item.flowId()).findFirst().orElseThrow();
      RefundOrder r = refundOf(f);
      ordered.add(r);
      assertThat(
              runs.recordItem(
                  batch.id(),
                  "runner-1",
                  item.id(),
                  new ItemDecision.Result(ItemOutcome.ORDERED, r.id(), null),
                  T0))
          .isTrue();
    }
    move(move(ordered.get(0), RefundStatus.PROCESSING), RefundStatus.SUCCESS);
    move(move(ordered.get(1), RefundStatus.PROCESSING), RefundStatus.SUCCESS);
    move(move(ordered.get(2), RefundStatus.PROCESSING), RefundStatus.ABNORMAL);
    move(move(ordered.get(3), RefundStatus.PROCESSING), RefundStatus.FAIL);

    assertThat(runs.settle(batch.id(), "runner-2", T0)).as("not the holder").isZero();
    assertThat(runs.settle(batch.id(), "runner-1", T0)).isEqualTo(4);
    assertThat(runs.settle(batch.id(), "runner-1", T0)).as("settled once").isZero();

    assertThat(runs.progress(batch.id()).count(ItemOutcome.REFUNDED)).isEqualTo(2);
    assertThat(runs.progress(batch.id()).count(ItemOutcome.NEEDS_PERSON)).isEqualTo(1);
    assertThat(runs.progress(batch.id()).count(ItemOutcome.FAILED)).isEqualTo(1);
    assertThat(batches.items(batch.id(), ItemOutcome.NEEDS_PERSON, 0, 10))
        .singleElement()
        .satisfies(line -> assertThat(line.detail()).isEqualTo("refund order ABNORMAL"));
    assertThat(runs.finish(batch.id(), "runner-1", runs.progress(batch.id()), T0)).isTrue();
    assertThat(batches.find(batch.id()).orElseThrow().state()).isEqualTo(BatchState.DONE);

    // A second batch over the same scene finds what the first one ordered, on every shard.
    RefundBatch again = proposeAndRun("runner-3");
    assertThat(again.totalItems()).isEqualTo(4);
    assertThat(runs.markPriorBatchRefunds(again.id(), "runner-3", T0)).isEqualTo(4);
    assertThat(runs.progress(again.id()).count(ItemOutcome.ALREADY_REFUNDED)).isEqualTo(3);
    assertThat(batches.items(again.id(), ItemOutcome.NEEDS_PERSON, 0, 10))
        .singleElement()
        .satisfies(
            line -> assertThat(line.detail()).isEqualTo("an earlier batch's refund order is FAIL"));
    assertThat(runs.pendingItems(again.id(), 0, 10)).isEmpty();
  }
}
