package dev.clearway.service.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.clearway.boot.metrics.MicrometerOverloadEvents;
import dev.clearway.boot.metrics.MicrometerWorkerFailures;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.EngineRuntime;
import dev.clearway.core.runtime.Supervision;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A worker that dies and a scanner round that fails are logged with their cause and counted in
 * {@code clearway.worker.failures{loop}}; the runtime goes on. A wake-up that finds every worker
 * busy and the queue full is dropped and counted in {@code clearway.overload.rejected{pool}}.
 */
class WorkerFailuresTest {
  private final MeterRegistry meters = new SimpleMeterRegistry();
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final Logger workerLog = (Logger) LoggerFactory.getLogger("dev.clearway.worker");
  private final CountDownLatch hold = new CountDownLatch(1);
  private EngineRuntime runtime;

  @BeforeEach
  void capture() {
    logged.start();
    workerLog.addAppender(logged);
  }

  @AfterEach
  void release() {
    hold.countDown();
    if (runtime != null) {
      runtime.close();
    }
    workerLog.detachAppender(logged);
  }

  @Test
  void deathsAndFailedRoundsAreLoggedWithTheirCauseAndCountedAndTheLoopsGoOn() throws Exception {
    AtomicInteger rounds = new AtomicInteger();
    CountDownLatch entered = new CountDownLatch(1);
    runtime =
        new EngineRuntime(
            new EngineRuntime.Settings(
                "test",
                "flow",
                Duration.ofMillis(20),
                1,
                0,
                new Supervision(
                    new MicrometerWorkerFailures(meters), new MicrometerOverloadEvents(meters))),
            (id, trigger) -> {
              if (id == 1) {
                throw new IllegalStateException("advance of 1 failed");
              }
              entered.countDown();
              try {
                hold.await(10, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            dispatch -> {
              if (rounds.incrementAndGet() == 1) {
                throw new IllegalStateException("scanner round failed");
              }
              return 0;
            });
    runtime.start();

    runtime.wake(1, TriggerSource.WAKEUP);
    await(() -> count("clearway.worker.failures", "loop", "flow-worker"), 1);
    await(() -> count("clearway.worker.failures", "loop", "flow-scanner"), 1);
    await(rounds::get, 3); // the scanner goes on after its failed round

    runtime.wake(2, TriggerSource.WAKEUP); // takes the only worker
    assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
    runtime.wake(3, TriggerSource.WAKEUP); // no worker, no queue: dropped
    assertThat(count("clearway.overload.rejected", "pool", "flow-workers")).isEqualTo(1);

    assertThat(logged.list)
        .filteredOn(e -> e.getLevel() == Level.WARN)
        .extracting(e -> e.getFormattedMessage() + " / " + e.getThrowableProxy().getMessage())
        .contains(
            "background loop flow-worker failed and goes on / advance of 1 failed",
            "background loop flow-scanner failed and goes on / scanner round failed");
  }

  private long count(String name, String tag, String value) {
    Counter c = meters.find(name).tag(tag, value).counter();
    return c == null ? 0 : (long) c.count();
  }

  private static void await(LongSupplier value, long atLeast) throws InterruptedException {
    Instant giveUp = Instant.now().plusSeconds(10);
    while (value.getAsLong() < atLeast && Instant.now().isBefore(giveUp)) {
      Thread.sleep(10);
    }
    assertThat(value.getAsLong()).isGreaterThanOrEqualTo(atLeast);
  }
}
