package dev.clearway.lab.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * A JVM's heap after a full collection (the service's by default) at the end of each window of a
 * soak: a thread started when the measured time starts reads it every window, and the reading at
 * the end of the measured time closes the series. Each reading keeps the time it was taken at, and
 * the least-squares slope of the readings against those times says whether the heap grows.
 */
final class HeapSeries {
  private record Reading(double minute, long bytes) {}

  private final double windowSec;
  private final double durationSec;
  private final LongSupplier heapAfterGc;
  private final List<Reading> readings = new ArrayList<>();
  private Thread sampler;
  private long startNanos;

  /** The heap of this JVM, the service's. */
  HeapSeries(double windowSec, double durationSec) {
    this(windowSec, durationSec, ServiceJvm::heapAfterGc);
  }

  /**
   * @param heapAfterGc the heap in bytes right after a full collection of the JVM to watch
   */
  HeapSeries(double windowSec, double durationSec, LongSupplier heapAfterGc) {
    this.windowSec = windowSec;
    this.durationSec = durationSec;
    this.heapAfterGc = heapAfterGc;
  }

  /** Starts reading at the end of each full window from now. */
  synchronized void start() {
    startNanos = System.nanoTime();
    sampler = new Thread(this::sample, "soak-heap");
    sampler.setDaemon(true);
    sampler.start();
  }

  /** The reading at the end of the measured time: stops the windowed readings first. */
  void finish() {
    Thread running;
    synchronized (this) {
      running = sampler;
    }
    if (running != null) {
      running.interrupt();
      try {
        running.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    read();
  }

  private void sample() {
    // The window ending with the measured time is read by finish().
    for (int k = 1; k * windowSec <= durationSec - windowSec / 2; k++) {
      long wait = startNanos + (long) (k * windowSec * 1e9) - System.nanoTime();
      try {
        Thread.sleep(Math.max(0, wait / 1_000_000));
      } catch (InterruptedException e) {
        return;
      }
      read();
    }
  }

  private void read() {
    long used = heapAfterGc.getAsLong();
    synchronized (this) {
      double minute = startNanos == 0 ? durationSec / 60 : (System.nanoTime() - startNanos) / 6e10;
      readings.add(new Reading(minute, used));
    }
  }

  /**
   * The reading at the end of each of {@code windows} windows in MB, null where none was taken (a
   * loaded machine can delay the readings); the last one is always the end of the measured time's.
   */
  synchronized List<Double> megabytes(int windows) {
    List<Double> mb = new ArrayList<>();
    int n = readings.size();
    for (int i = 0; i < windows; i++) {
      int r = i == windows - 1 ? n - 1 : i < n - 1 ? i : -1;
      // r is -1 also when no reading was taken at all.
      mb.add(r < 0 ? null : readings.get(r).bytes() / 1048576.0);
    }
    return mb;
  }

  /** The least-squares slope in MB per minute of the readings; 0 with fewer than two. */
  synchronized double slopeMbPerMin() {
    int n = readings.size();
    double sx = 0;
    double sy = 0;
    double sxx = 0;
    double sxy = 0;
    for (Reading r : readings) {
      double y = r.bytes() / 1048576.0;
      sx += r.minute();
      sy += y;
      sxx += r.minute() * r.minute();
      sxy += r.minute() * y;
    }
    double d = n * sxx - sx * sx;
    return n < 2 || d == 0 ? 0 : (n * sxy - sx * sy) / d;
  }
}
