package dev.clearway.sim.psp.wechat;

import java.time.Duration;
import java.util.List;

/**
 * WeChat Pay's documented notification retry schedule: after a failed delivery it tries again after
 * 15s, 15s, 30s, 3m, 10m, 20m, 30m, 30m, 30m, 60m, 3h, 3h, 3h, 6h, 6h, then gives up. A scale
 * compresses it for tests.
 */
final class NotificationSchedule {
  static final List<Duration> DOCUMENTED =
      List.of(
          Duration.ofSeconds(15),
          Duration.ofSeconds(15),
          Duration.ofSeconds(30),
          Duration.ofMinutes(3),
          Duration.ofMinutes(10),
          Duration.ofMinutes(20),
          Duration.ofMinutes(30),
          Duration.ofMinutes(30),
          Duration.ofMinutes(30),
          Duration.ofMinutes(60),
          Duration.ofHours(3),
          Duration.ofHours(3),
          Duration.ofHours(3),
          Duration.ofHours(6),
          Duration.ofHours(6));

  private final double scale;

  NotificationSchedule(double scale) {
    this.scale = scale;
  }

  /** The wait before retry number {@code retry} (1-based), or null when no retry is left. */
  Duration retryAfter(int retry) {
    if (retry < 1 || retry > DOCUMENTED.size()) {
      return null;
    }
    return Duration.ofMillis(Math.max(1, Math.round(DOCUMENTED.get(retry - 1).toMillis() * scale)));
  }
}
