package dev.clearway.core.flow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.port.WorkerFailures;
import dev.clearway.core.runtime.Supervision;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The in-process wake-up queue: one entry per flow (the earliest), bounded, failures reported. */
class InProcessWakeupsTest {
  private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  private final MovableClock clock = new MovableClock(T0);
  private final ConcurrentHashMap<String, AtomicInteger> rejected = new ConcurrentHashMap<>();
  private final List<String> failures = new CopyOnWriteArrayList<>();
  private InProcessWakeups wakeups;

  @AfterEach
  void close() {
    if (wakeups != null) {
      wakeups.close();
    }
  }

  private InProcessWakeups start(int capacity, LongConsumer onDue) {
    WorkerFailures reported = (loop, cause) -> failures.add(loop + ":" + cause.getMessage());
    Supervision supervision =
        new Supervision(
            reported,
            pool -> rejected.computeIfAbsent(pool, p -> new AtomicInteger()).incrementAndGet());
    wakeups =
        new InProcessWakeups(
            clock, onDue, new InProcessWakeups.Settings("flow-wakeups", capacity, supervision));
    return wakeups;
  }

  @Test
  void aFlowIsHeldOnceWithItsEarliestDueTime() throws Exception {
    BlockingQueue<Long> due = new LinkedBlockingQueue<>();
    InProcessWakeups q = start(100, due::add);

    q.schedule(7, T0.plusSeconds(10));
    q.schedule(7, T0.plusSeconds(5));
    q.schedule(7, T0.plusSeconds(20));
    q.schedule(7, T0.plusSeconds(5));

    assertThat(q.size()).isEqualTo(1);
    assertThat(q.dueTime(7)).contains(T0.plusSeconds(5));

    clock.set(T0.plusSeconds(6));
    assertThat(due.poll(5, TimeUnit.SECONDS)).isEqualTo(7L);
    clock.set(T0.plusSeconds(30));
    assertThat(due.poll(300, TimeUnit.MILLISECONDS)).as("one wake-up per flow").isNull();
    assertThat(q.size()).isZero();
    assertThat(rejected).isEmpty();
  }

  @Test
  void aFullQueueDropsNewFlowsAndCountsThemButStillMovesHeldOnesEarlier() {
    InProcessWakeups q = start(3, id -> {});

    for (long id = 1; id <= 3; id++) {
      q.schedule(id, T0.plusSeconds(60));
    }
    q.schedule(4, T0.plusSeconds(1));
    q.schedule(5, T0.plusSeconds(1));
    q.schedule(2, T0.plusSeconds(30));

    assertThat(q.size()).isEqualTo(3);
    assertThat(q.dueTime(4)).isEmpty();
    assertThat(q.dueTime(2)).contains(T0.plusSeconds(30));
    assertThat(rejected.get("flow-wakeups")).hasValue(2);
  }

  @Test
  void aConsumerThatThrowsIsReportedAndTheDrainerGoesOn() throws Exception {
    BlockingQueue<Long> due = new LinkedBlockingQueue<>();
    InProcessWakeups q =
        start(
            10,
            id -> {
              if (id == 1) {
                throw new IllegalStateException("hand-off failed");
              }
              due.add(id);
            });

    q.schedule(1, T0);
    q.schedule(2, T0.plusMillis(1));
    clock.set(T0.plusSeconds(1));

    assertThat(due.poll(5, TimeUnit.SECONDS)).isEqualTo(2L);
    assertThat(failures).containsExactly("flow-wakeups:hand-off failed");
  }

  /** A clock the test sets; the drainer re-reads it at least every 100 ms. */
  private static final class MovableClock extends Clock {
    private volatile Instant now;

    MovableClock(Instant start) {
      this.now = start;
    }

    void set(Instant instant) {
      now = instant;
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public long millis() {
      return now.toEpochMilli();
    }
  }
}
