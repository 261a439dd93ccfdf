package dev.clearway.service.testkit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A UTC clock that only moves when a test moves it. Thread-safe; never goes backwards. */
public final class MutableClock extends Clock {
  private final AtomicReference<Instant> now;

  public MutableClock(Instant start) {
    this.now = new AtomicReference<>(start);
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
    MutableClock self = this;
    return new Clock() {
      @Override
      public ZoneId getZone() {
        return zone;
      }

      @Override
      public Clock withZone(ZoneId other) {
        return self.withZone(other);
      }

      @Override
      public Instant instant() {
        return self.instant();
      }
    };
  }

  public Instant advance(Duration by) {
    if (by.isNegative()) {
      throw new IllegalArgumentException("the clock never goes backwards: " + by);
    }
    return now.updateAndGet(t -> t.plus(by));
  }

  /** Moves to {@code at}; a moment already passed is an error in the test. */
  public Instant set(Instant at) {
    return now.updateAndGet(
        t -> {
          if (at.isBefore(t)) {
            throw new IllegalArgumentException("the clock never goes backwards: " + t + " > " + at);
          }
          return at;
        });
  }

  /** Moves to {@code at} unless the clock is already later. */
  public Instant atLeast(Instant at) {
    return now.updateAndGet(t -> at.isAfter(t) ? at : t);
  }
}
