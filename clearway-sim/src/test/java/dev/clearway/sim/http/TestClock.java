package dev.clearway.sim.http;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** The wallet's clock in tests: starts at the real time and moves ahead when a test says so. */
final class TestClock extends Clock {
  private final AtomicReference<Instant> now = new AtomicReference<>(Instant.now());

  void advance(Duration d) {
    now.updateAndGet(t -> t.plus(d));
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException();
  }
}
