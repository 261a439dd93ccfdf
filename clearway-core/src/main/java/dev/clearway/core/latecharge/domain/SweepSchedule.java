package dev.clearway.core.latecharge.domain;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * When the sweep asks the wallet about an order that ended without payment. Each ended order is
 * queried once at every stage: when it has been ended for {@code stages[0]}, then {@code
 * stages[1]}, and so on, all within the {@code window}. The cost is bounded: at most {@code
 * stages.size()} queries per ended order, paced at {@code queriesPerSecond}.
 *
 * @param window how far back the sweep looks (orders ended longer ago are not queried)
 * @param stages ages after the end at which an order is queried, ascending, each within the window
 * @param queriesPerSecond the wallet query budget of the sweep (one process)
 * @param pageSize ended orders read per statement
 * @param interval pause between sweep rounds
 */
public record SweepSchedule(
    Duration window, List<Duration> stages, int queriesPerSecond, int pageSize, Duration interval) {

  /** The stages of production: 5 minutes, 1 hour, 6 hours, 1 day after the end. */
  private static final List<Duration> GROWING =
      List.of(Duration.ofMinutes(5), Duration.ofHours(1), Duration.ofHours(6), Duration.ofDays(1));

  public SweepSchedule {
    if (window == null || window.isZero() || window.isNegative()) {
      throw new IllegalArgumentException("the sweep window must be positive");
    }
    if (stages == null || stages.isEmpty()) {
      throw new IllegalArgumentException("the sweep needs at least one stage");
    }
    Duration previous = Duration.ZERO;
    for (Duration stage : stages) {
      if (stage.compareTo(previous) <= 0 || stage.compareTo(window) >= 0) {
        throw new IllegalArgumentException(
            "sweep stages must be ascending, positive and shorter than the window");
      }
      previous = stage;
    }
    if (queriesPerSecond <= 0 || pageSize <= 0) {
      throw new IllegalArgumentException("the sweep's rate and page size must be positive");
    }
    if (interval == null || interval.isNegative()) {
      throw new IllegalArgumentException("the sweep interval must not be negative");
    }
    stages = List.copyOf(stages);
  }

  /**
   * Production: 5 minutes, 1 hour, 6 hours and 1 day after the end (those shorter than the window),
   * and a last query shortly before the order leaves the window (window minus a tenth, at most one
   * hour); a round every minute.
   */
  public static SweepSchedule production(Duration window, int queriesPerSecond) {
    Duration margin = window.dividedBy(10);
    if (margin.compareTo(Duration.ofHours(1)) > 0) {
      margin = Duration.ofHours(1);
    }
    Duration last = window.minus(margin);
    List<Duration> stages = new ArrayList<>();
    for (Duration stage : GROWING) {
      if (stage.compareTo(last) < 0) {
        stages.add(stage);
      }
    }
    stages.add(last);
    return new SweepSchedule(window, stages, queriesPerSecond, 100, Duration.ofMinutes(1));
  }

  /** Seconds instead of hours: for demos and tests. */
  public static SweepSchedule compressed() {
    return new SweepSchedule(
        Duration.ofMinutes(2),
        List.of(Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofSeconds(60)),
        200,
        100,
        Duration.ofMillis(200));
  }

  /**
   * How long before now a stage starts when it has no cursor yet: the age of the next stage (the
   * window for the last). Orders older than that reach a later stage first, so a fresh deployment
   * queries every ended order of the window once, not once per stage.
   */
  public Duration firstStartAge(Duration stage) {
    int i = stages.indexOf(stage);
    if (i < 0) {
      throw new IllegalArgumentException("not a stage of this schedule: " + stage);
    }
    return i + 1 < stages.size() ? stages.get(i + 1) : window;
  }
}
