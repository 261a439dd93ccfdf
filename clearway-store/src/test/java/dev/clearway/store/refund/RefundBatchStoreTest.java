package dev.clearway.store.refund;

import static dev.clearway.store.refund.RefundFixtures.bizSuccess;
import static dev.clearway.store.refund.RefundFixtures.created;
import static dev.clearway.store.refund.RefundFixtures.move;
import static dev.clearway.store.refund.RefundFixtures.now;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refundbatch.decision.ItemDecision;
import dev.clearway.core.refundbatch.domain.BatchItem;
import dev.clearway.core.refundbatch.domain.BatchScope;
import dev.clearway.core.refundbatch.domain.BatchState;
import dev.clearway.core.refundbatch.domain.ItemOutcome;
import dev.clearway.core.refundbatch.domain.RefundBatch;
import dev.clearway.core.refundbatch.port.RefundBatchCommands.Proposal;
import dev.clearway.core.refundbatch.port.RefundBatchCommands.Result;
import dev.clearway.store.refundbatch.JdbcBatchRunStore;
import dev.clearway.store.refundbatch.JdbcRefundBatchCommands;
import dev.clearway.store.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The refund batch stores on a real database: a proposal takes the scope's paid goals (listed
 * business keys round-trip), one open batch per scene, two people, the runner's claim, its
 * lease-fenced item writes and the settlement from the refund orders.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class RefundBatchStoreTest {

  private final JdbcRefundBatchCommands batches =
      new JdbcRefundBatchCommands(TestDatabase.get().dataSource(), TestDatabase.get().dialect());
  private final JdbcBatchRunStore runs =
      new JdbcBatchRunStore(TestDatabase.get().dataSource(), TestDatabase.get().dialect());

  @BeforeEach
  void reset() {
    RefundFixtures.reset();
    TestDatabase.get().truncate("refund_batch_audit", "refund_batch_item", "refund_batch");
  }

  @Test
  void aProposalTakesTheListedPaidGoalsAndIsDecidedByAnotherPerson() {
    Instant now = now();
    PayFlow listed = bizSuccess(now);
    bizSuccess(now);
    BatchScope scope =
        new BatchScope(
            RefundFixtures.MERCHANT, "renew", null, null, List.of(listed.goal().bizKey()));

    Result proposed = batches.propose(new Proposal(scope, "alice", "T-1", "recall"), now);

    assertThat(proposed).isInstanceOf(Result.Done.class);
    RefundBatch batch = ((Result.Done) proposed).batch();
    assertThat(batch.state()).isEqualTo(BatchState.PROPOSED);
    assertThat(batch.totalItems()).isEqualTo(1);
    assertThat(batch.scope().bizKeys()).containsExactly(listed.goal().bizKey());
    assertThat(batches.propose(new Proposal(scope, "bob", "T-2", "again"), now))
        .isEqualTo(
            new Result.Refused(
                "batch_already_open", "the scene already has a batch that has not ended"));
    assertThat(batches.approve(batch.id(), "Alice", now))
        .isInstanceOf(Result.Refused.class)
        .extracting(r -> ((Result.Refused) r).code())
        .isEqualTo("same_person");
    Result approved = batches.approve(batch.id(), "bob", now);
    assertThat(approved).isInstanceOf(Result.Done.class);
    assertThat(((Result.Done) approved).batch().state()).isEqualTo(BatchState.APPROVED);
    assertThat(batches.list(BatchState.APPROVED, Long.MAX_VALUE, 10))
        .extracting(RefundBatch::id)
        .containsExactly(batch.id());
    assertThat(batches.list(null, Long.MAX_VALUE, 10)).hasSize(1);
    assertThat(batches.list(BatchState.PROPOSED, Long.MAX_VALUE, 10)).isEmpty();
  }

  @Test
  void theRunnerClaimsRecordsUnderItsLeaseAndSettlesFromTheRefundOrders() {
    Instant now = now();
    PayFlow a = bizSuccess(now);
    PayFlow b = bizSuccess(now);
    BatchScope scope = new BatchScope(RefundFixtures.MERCHANT, "renew", null, null, null);
    RefundBatch batch =
        ((Result.Done) batches.propose(new Proposal(scope, "alice", "T-1", "recall"), now)).batch();
    batches.approve(batch.id(), "bob", now);
    Lease lease = new Lease("runner-1", now.plus(Duration.ofSeconds(30)));

    RefundBatch running = runs.claimDue(lease, now).orElseThrow();

    assertThat(running.state()).isEqualTo(BatchState.RUNNING);
    assertThat(running.version()).isEqualTo(batch.version() + 2);
    assertThat(running.leaseOwner()).isEqualTo("runner-1");
    assertThat(runs.claimDue(new Lease("runner-2", lease.until()), now)).isEmpty();
    List<BatchItem> items = runs.pendingItems(batch.id(), 0, 10);
    assertThat(items).extracting(BatchItem::flowId).containsExactly(a.id(), b.id());
    assertThat(runs.markPriorBatchRefunds(batch.id(), "runner-1", now)).isZero();

    RefundOrder ra = created(a, 500, "batch-a", now);
    RefundOrder rb = created(b, 500, "batch-b", now);
    assertThat(record(batch, "runner-2", items.get(0), ra)).isFalse();
    assertThat(record(batch, "runner-1", items.get(0), ra)).isTrue();
    assertThat(record(batch, "runner-1", items.get(1), rb)).isTrue();
    move(move(ra, RefundStatus.PROCESSING, now), RefundStatus.SUCCESS, now);
    move(move(rb, RefundStatus.PROCESSING, now), RefundStatus.ABNORMAL, now);

    assertThat(runs.settle(batch.id(), "runner-2", now)).isZero();
    assertThat(runs.settle(batch.id(), "runner-1", now)).isEqualTo(2);

    assertThat(runs.progress(batch.id()).count(ItemOutcome.REFUNDED)).isEqualTo(1);
    assertThat(runs.progress(batch.id()).count(ItemOutcome.NEEDS_PERSON)).isEqualTo(1);
    assertThat(batches.items(batch.id(), ItemOutcome.NEEDS_PERSON, 0, 10))
        .singleElement()
        .satisfies(line -> assertThat(line.detail()).isEqualTo("refund order ABNORMAL"));
    assertThat(runs.finish(batch.id(), "runner-1", runs.progress(batch.id()), now)).isTrue();
    assertThat(batches.find(batch.id()).orElseThrow().state()).isEqualTo(BatchState.DONE);
  }

  private boolean record(RefundBatch batch, String holder, BatchItem item, RefundOrder refund) {
    return runs.recordItem(
        batch.id(),
        holder,
        item.id(),
        new ItemDecision.Result(ItemOutcome.ORDERED, refund.id(), null),
        RefundFixtures.now());
  }
}
