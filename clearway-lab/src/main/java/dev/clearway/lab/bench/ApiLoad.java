package dev.clearway.lab.bench;

import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The load generator's loops. Closed: {@code concurrency} workers, each creating a payment and
 * polling it until its flow is final, then the next. Open: payments started at a constant rate
 * whatever the answers, each on a worker of a large pool. Prints {@link #WARMUP_DONE} when the
 * warm-up ends and {@link #MEASURE_DONE} when the measured time ends, so that the service's side
 * can read its own counters at the same instants.
 */
final class ApiLoad {
  static final String WARMUP_DONE = "LOAD WARMUP_DONE";
  static final String MEASURE_DONE = "LOAD MEASURE_DONE";
  private static final long POLL_NANOS = 5_000_000;
  private static final long GIVE_UP_NANOS = 60_000_000_000L;
  private static final int OPEN_WORKERS = 256;

  /**
   * @param rate payments started per second; 0 means a closed loop of {@code concurrency} workers
   * @param windowSec the length of the first and last windows reported apart, and of each window of
   *     the series (0: none)
   */
  record Plan(
      int concurrency, double rate, double warmupSec, double durationSec, double windowSec) {
    double endSec() {
      return warmupSec + durationSec;
    }
  }

  private final ApiClient client;
  private final Plan plan;
  private final LoadRecorder recorder = new LoadRecorder();
  private final java.util.concurrent.atomic.AtomicInteger failuresShown =
      new java.util.concurrent.atomic.AtomicInteger();
  private final long t0 = System.nanoTime();
  private final long deadline = Instant.now().plusSeconds(3_600).getEpochSecond();

  ApiLoad(ApiClient client, Plan plan) {
    this.client = client;
    this.plan = plan;
  }

  /** Runs the plan, printing the markers to {@code out}; returns the figures. */
  Map<String, Object> run(PrintStream out) throws InterruptedException {
    Thread markers = new Thread(() -> markers(out), "load-markers");
    markers.setDaemon(true);
    markers.start();
    if (plan.rate() > 0) {
      open();
    } else {
      closed();
    }
    markers.join();
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("warmup", recorder.figures(0, plan.warmupSec()));
    json.put("measured", recorder.figures(plan.warmupSec(), plan.endSec()));
    if (plan.windowSec() > 0) {
      double w = Math.min(plan.windowSec(), plan.durationSec());
      json.put("first", recorder.figures(plan.warmupSec(), plan.warmupSec() + w));
      json.put("last", recorder.figures(plan.endSec() - w, plan.endSec()));
      json.put("windows", windows(w));
    }
    return json;
  }

  /** The figures of each consecutive window of the measured time (the last one may be shorter). */
  private List<Map<String, Object>> windows(double w) {
    List<Map<String, Object>> series = new ArrayList<>();
    for (double from = plan.warmupSec(); from < plan.endSec() - 1e-9; from += w) {
      series.add(recorder.figures(from, Math.min(from + w, plan.endSec())));
    }
    return series;
  }

  private void markers(PrintStream out) {
    sleepUntil(at(plan.warmupSec()));
    out.println(WARMUP_DONE);
    out.flush();
    sleepUntil(at(plan.endSec()));
    out.println(MEASURE_DONE);
    out.flush();
  }

  private void closed() {
    long end = at(plan.endSec());
    dev.clearway.lab.Parallel.run(
        plan.concurrency(),
        "load",
        w -> {
          long s;
          while ((s = System.nanoTime()) < end && !Thread.currentThread().isInterrupted()) {
            pay(s);
          }
        });
  }

  private void open() throws InterruptedException {
    ExecutorService pool =
        Executors.newFixedThreadPool(
            OPEN_WORKERS,
            r -> {
              Thread t = new Thread(r, "load-open");
              t.setDaemon(true);
              return t;
            });
    long end = at(plan.endSec());
    double period = 1e9 / plan.rate();
    for (long k = 0; ; k++) {
      long intended = t0 + (long) (k * period);
      if (intended >= end) {
        break;
      }
      sleepUntil(intended);
      pool.execute(() -> pay(intended));
    }
    pool.shutdown();
    pool.awaitTermination(GIVE_UP_NANOS + 10_000_000_000L, TimeUnit.NANOSECONDS);
  }

  /** One payment from its intended start: create, then poll until final or given up. */
  private void pay(long intended) {
    try {
      ApiClient.Answer a = client.create(deadline);
      long post = (System.nanoTime() - intended) / 1_000;
      boolean created = a.status() >= 200 && a.status() < 300 && a.flowId() > 0;
      boolean terminal = a.terminal();
      ApiClient.Answer last = a;
      int polls = 0;
      while (created && !terminal && System.nanoTime() - intended < GIVE_UP_NANOS) {
        LockSupport.parkNanos(POLL_NANOS);
        last = client.get(a.flowId());
        polls++;
        terminal = last.terminal();
      }
      long done = terminal ? (System.nanoTime() - intended) / 1_000 : -1;
      if (!terminal && failuresShown.getAndIncrement() < 3) {
        System.err.printf(
            "load: a payment did not end: POST %d, last answer %d, flow %d%n",
            a.status(), last.status(), a.flowId());
      }
      recorder.add(new LoadRecorder.Sample(intended - t0, post, done, polls));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private long at(double sec) {
    return t0 + (long) (sec * 1e9);
  }

  private static void sleepUntil(long nanoTime) {
    long left;
    while ((left = nanoTime - System.nanoTime()) > 0) {
      LockSupport.parkNanos(left);
    }
  }
}
