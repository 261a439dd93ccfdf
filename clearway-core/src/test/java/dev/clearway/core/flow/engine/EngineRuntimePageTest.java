package dev.clearway.core.flow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.runtime.Supervision;
import dev.clearway.core.testing.Flows;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The runtime's hand-off of a claimed page: a page that carries its rows goes to the workers in
 * shares of at most {@link EngineRuntime#PAGE_SHARE} flows, every row in exactly one share, all
 * under the page's lease; a page of ids alone goes row by row.
 */
class EngineRuntimePageTest {
  private static final Lease LEASE = new Lease("page-lease", Instant.parse("2030-01-01T00:01:00Z"));

  private static EngineRuntime.Settings settings() {
    return new EngineRuntime.Settings(
        "page-test", "flow", Duration.ofSeconds(60), 4, 64, Supervision.defaults());
  }

  private static List<Scanner.Claimed> page(int size, boolean withRows) {
    List<Scanner.Claimed> page = new ArrayList<>();
    for (long id = 1; id <= size; id++) {
      PayFlow row =
          PayFlow.builder()
              .id(id)
              .status(FlowStatus.PAYING)
              .leaseOwner("page-lease")
              .goal(Flows.GOAL)
              .build();
      page.add(
          new Scanner.Claimed(
              id,
              withRows
                  ? Trigger.claimed(TriggerSource.SCANNER, LEASE, row)
                  : Trigger.held(TriggerSource.SCANNER, LEASE)));
    }
    return page;
  }

  /** Runs one round that hands {@code page} over, and waits for {@code tasks} worker tasks. */
  private static void runOnce(
      List<Scanner.Claimed> page,
      int tasks,
      ConcurrentLinkedQueue<List<Long>> shares,
      ConcurrentLinkedQueue<Long> alone)
      throws InterruptedException {
    CountDownLatch done = new CountDownLatch(tasks);
    AtomicBoolean first = new AtomicBoolean(true);
    try (EngineRuntime runtime =
        new EngineRuntime(
            settings(),
            (id, trigger) -> {
              alone.add(id);
              done.countDown();
            },
            (rows, trigger) -> {
              assertThat(trigger.lease()).isEqualTo(LEASE);
              shares.add(rows.stream().map(PayFlow::id).toList());
              done.countDown();
            },
            dispatch -> {
              if (first.getAndSet(false)) {
                dispatch.dispatchPage(page);
              }
              return page.size();
            })) {
      runtime.start();
      assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void aPageWithItsRowsGoesToTheWorkersInSharesOfAtMost32() throws Exception {
    ConcurrentLinkedQueue<List<Long>> shares = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<Long> alone = new ConcurrentLinkedQueue<>();
    runOnce(page(100, true), 4, shares, alone);

    assertThat(shares).hasSize(4).allMatch(s -> s.size() <= EngineRuntime.PAGE_SHARE);
    assertThat(shares).allMatch(s -> s.size() == 25);
    assertThat(shares.stream().flatMap(List::stream).sorted().toList())
        .isEqualTo(LongStream.rangeClosed(1, 100).boxed().toList());
    assertThat(alone).isEmpty();
  }

  @Test
  void aPageOfIdsAloneGoesRowByRow() throws Exception {
    ConcurrentLinkedQueue<List<Long>> shares = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<Long> alone = new ConcurrentLinkedQueue<>();
    runOnce(page(5, false), 5, shares, alone);

    assertThat(shares).isEmpty();
    assertThat(alone).containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 5L);
  }
}
