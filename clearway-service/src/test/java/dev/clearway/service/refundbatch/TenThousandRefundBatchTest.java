package dev.clearway.service.refundbatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.engine.PacedRateLimiter;
import dev.clearway.core.refund.port.RefundStore.CreateOutcome;
import dev.clearway.core.refundbatch.domain.BatchState;
import dev.clearway.core.refundbatch.domain.ItemOutcome;
import dev.clearway.core.refundbatch.domain.RefundBatch;
import dev.clearway.core.refundbatch.engine.BatchRunSettings;
import dev.clearway.core.refundbatch.engine.BatchRunner;
import dev.clearway.core.refundbatch.engine.BatchRunner.RunEnd;
import dev.clearway.core.refundbatch.port.BatchEvents;
import dev.clearway.core.refundbatch.port.BatchRefundEntry;
import dev.clearway.core.runtime.TokenMint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A batch of 10,000 payments on embedded PostgreSQL: paced at the account's budget, killed in the
 * middle (after the refund engine created an order and before its item was written), taken over by
 * another runner once the lease expired, and repeated: every payment ends with exactly one refund
 * order, sent to the wallet once, and nothing is refunded twice.
 */
class TenThousandRefundBatchTest {
  private static final int PAYMENTS = 10_000;
  private static final int QPS = 400;
  private static final int KILL_AFTER = 3_000;

  /** Stands for the death of a runner's process: nothing after it runs. */
  private static final class Killed extends RuntimeException {
    private static final long serialVersionUID = 1L;
  }

  @Test
  void pacedKilledResumedAndRepeatedRefundsEachPaymentOnce() throws InterruptedException {
    BatchRig rig = new BatchRig();
    rig.paidGoals(PAYMENTS, BatchRig.SCENE);
    RefundBatch batch = rig.approvedBatch(BatchRig.SCENE);
    assertThat(batch.totalItems()).isEqualTo(PAYMENTS);

    PacedRateLimiter budget = new PacedRateLimiter();
    // As in the service: the refund engine advances each new order on its own small pool.
    ExecutorService advances = Executors.newFixedThreadPool(4);
    List<Long> callNanos = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger calls = new AtomicInteger();
    BatchRefundEntry timed =
        request -> {
          callNanos.add(System.nanoTime());
          CreateOutcome outcome = rig.refundService.request(request, Duration.ZERO, advances);
          if (calls.incrementAndGet() == KILL_AFTER) {
            throw new Killed();
          }
          return outcome;
        };

    long started = System.nanoTime();
    BatchRunner first = runner(rig, timed, budget, "node-1");
    try {
      first.runOnce();
      throw new AssertionError("the first runner was to be killed");
    } catch (Killed expected) {
      // The process died with the order of item 3,000 created and its outcome not written.
    }
    assertThat(rig.count("SELECT count(*) FROM refund_order")).isEqualTo(KILL_AFTER);
    assertThat(rig.count("SELECT count(*) FROM refund_batch_item WHERE outcome = 'PENDING'"))
        .isEqualTo(PAYMENTS - KILL_AFTER + 1);

    BatchRunner second = runner(rig, timed, budget, "node-2");
    assertThat(second.runOnce())
        .as("the dead runner's lease still holds")
        .isEqualTo(RunEnd.NONE_DUE);
    rig.h.clock.advance(BatchRig.lease().plusSeconds(1));
    RunEnd end = second.runOnce();
    long placedNanos = System.nanoTime() - started;
    while (end != RunEnd.DONE) {
      // Orders still being carried out: the batch is looked at again after its settle interval.
      assertThat(end).isIn(RunEnd.WAITING_FOR_ORDERS, RunEnd.NONE_DUE);
      Thread.sleep(50);
      rig.h.clock.advance(Duration.ofSeconds(1));
      end = second.runOnce();
    }
    advances.shutdown();
    long elapsedNanos = System.nanoTime() - started;

    // Nothing lost, nothing duplicated: one refund order per payment, each sent once.
    assertThat(rig.count("SELECT count(*) FROM refund_order")).isEqualTo(PAYMENTS);
    assertThat(rig.count("SELECT count(DISTINCT flow_id) FROM refund_order")).isEqualTo(PAYMENTS);
    assertThat(rig.count("SELECT count(*) FROM refund_order WHERE status = 'SUCCESS'"))
        .isEqualTo(PAYMENTS);
    assertThat(rig.h.wallet.calls("REFUND")).hasSize(PAYMENTS);
    assertThat(rig.count("SELECT count(*) FROM refund_batch_item WHERE outcome = 'REFUNDED'"))
        .isEqualTo(PAYMENTS);
    RefundBatch done = rig.commands.find(batch.id()).orElseThrow();
    assertThat(done.state()).isEqualTo(BatchState.DONE);
    assertThat(rig.count("SELECT refunded FROM refund_batch WHERE id = ?", batch.id()))
        .isEqualTo(PAYMENTS);

    // Paced: 10,000 calls at QPS a second take at least (10,000 - 1) / QPS seconds, and no
    // second ever held more than QPS calls (the kill re-asks one payment: one call more).
    assertThat(callNanos).hasSize(PAYMENTS + 1);
    assertThat(Duration.ofNanos(elapsedNanos))
        .isGreaterThanOrEqualTo(Duration.ofMillis((PAYMENTS - 1) * 1_000L / QPS));
    assertThat(Duration.ofNanos(placedNanos))
        .isGreaterThanOrEqualTo(Duration.ofMillis((PAYMENTS - 1) * 1_000L / QPS));
    assertThat(shortestWindowOf(callNanos, QPS)).isGreaterThanOrEqualTo(Duration.ofMillis(990));

    // The same scene again: every payment already refunded, no slot, no call, no new order.
    RefundBatch again = rig.approvedBatch(BatchRig.SCENE);
    int callsBefore = calls.get();
    assertThat(runner(rig, timed, budget, "node-3").runOnce()).isEqualTo(RunEnd.DONE);
    assertThat(calls.get()).isEqualTo(callsBefore);
    assertThat(rig.count("SELECT count(*) FROM refund_order")).isEqualTo(PAYMENTS);
    assertThat(rig.h.wallet.calls("REFUND")).hasSize(PAYMENTS);
    assertThat(rig.commands.progress(again.id()).count(ItemOutcome.ALREADY_REFUNDED))
        .isEqualTo(PAYMENTS);
    System.out.printf(
        "batch of %d at %d/s: orders placed in %d ms (floor %d ms), all ended in %d ms%n",
        PAYMENTS,
        QPS,
        placedNanos / 1_000_000,
        (PAYMENTS - 1) * 1_000L / QPS,
        elapsedNanos / 1_000_000);
  }

  /** The shortest time any {@code k + 1} consecutive calls spanned. */
  private static Duration shortestWindowOf(List<Long> nanos, int k) {
    List<Long> sorted = new ArrayList<>(nanos);
    Collections.sort(sorted);
    long shortest = Long.MAX_VALUE;
    for (int i = 0; i + k < sorted.size(); i++) {
      shortest = Math.min(shortest, sorted.get(i + k) - sorted.get(i));
    }
    return Duration.ofNanos(shortest);
  }

  private static BatchRunner runner(
      BatchRig rig, BatchRefundEntry entry, PacedRateLimiter budget, String node) {
    return new BatchRunner(
        rig.runStore,
        entry,
        budget,
        new TokenMint(node),
        new BatchRunSettings(
            QPS, BatchRig.lease(), 200, Duration.ofSeconds(1), Duration.ofSeconds(1)),
        BatchEvents.NONE,
        rig.h.clock);
  }
}
