package dev.clearway.psp.policy;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as policy files write them: a whole number and one unit, {@code 500ms}, {@code 10s},
 * {@code 2m}, {@code 2h}, {@code 1d}. Nothing else (no sign, no fractions, no compound values).
 */
final class DurationText {

  private static final Pattern FORM = Pattern.compile("(\\d{1,9})(ms|s|m|h|d)");

  private DurationText() {}

  static Optional<Duration> parse(String text) {
    Matcher m = FORM.matcher(text.strip());
    if (!m.matches()) {
      return Optional.empty();
    }
    long n = Long.parseLong(m.group(1));
    return Optional.of(
        switch (m.group(2)) {
          case "ms" -> Duration.ofMillis(n);
          case "s" -> Duration.ofSeconds(n);
          case "m" -> Duration.ofMinutes(n);
          case "h" -> Duration.ofHours(n);
          case "d" -> Duration.ofDays(n);
          default -> throw new IllegalStateException("unit outside the pattern");
        });
  }
}
