package dev.clearway.redis;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.migration.domain.LegacyAnswer;
import dev.clearway.core.migration.port.LegacyMarkers;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.Optional;

/**
 * The legacy path's in-flight markers in Redis, found by a configured key pattern whose {@code
 * {merchant}}, {@code {user}}, {@code {scene}} and {@code {bizKey}} are filled in with the goal,
 * for example {@code legacy:pay:{merchant}:{user}:{scene}:{bizKey}}. A pattern without {@code *}
 * names one key, read with GET (its value, or the key when the value is empty, is the reference); a
 * pattern with {@code *} (for example a trailing legacy order number) is looked up with SCAN MATCH,
 * never KEYS, the goal's own glob characters escaped, and the first key found is the reference.
 * Redis unreachable or too slow: unknown, never clear.
 */
public final class RedisLegacyMarkers implements LegacyMarkers {
  private static final int SCAN_COUNT = 1_000;

  private final RedisLink link;
  private final String pattern;
  private final boolean scan;

  public RedisLegacyMarkers(RedisLink link, String pattern) {
    if (pattern == null || pattern.isBlank() || !pattern.contains("{bizKey}")) {
      throw new IllegalArgumentException("the marker pattern must name {bizKey}");
    }
    this.link = link;
    this.pattern = pattern;
    this.scan = pattern.contains("*");
  }

  @Override
  public LegacyAnswer probe(GoalKey goal) {
    Optional<Optional<String>> found =
        link.call(RedisLink.MARKERS, scan ? c -> scan(c, goal) : c -> get(c, goal));
    if (found.isEmpty()) {
      return LegacyAnswer.unknown("markers: Redis unreachable");
    }
    return found.get().map(LegacyAnswer::inFlight).orElseGet(LegacyAnswer::clear);
  }

  /** The key of the goal's marker (exact pattern), or the match pattern (with {@code *}). */
  public String keyOf(GoalKey goal) {
    return fill(goal, scan);
  }

  private Optional<String> get(RedisCommands<String, String> c, GoalKey goal) {
    String key = fill(goal, false);
    String value = c.get(key);
    if (value == null) {
      return Optional.empty();
    }
    return Optional.of(value.isEmpty() ? key : value);
  }

  private Optional<String> scan(RedisCommands<String, String> c, GoalKey goal) {
    ScanArgs args = ScanArgs.Builder.matches(fill(goal, true)).limit(SCAN_COUNT);
    KeyScanCursor<String> cursor = c.scan(args);
    while (true) {
      if (!cursor.getKeys().isEmpty()) {
        return Optional.of(cursor.getKeys().get(0));
      }
      if (cursor.isFinished()) {
        return Optional.empty();
      }
      cursor = c.scan(cursor, args);
    }
  }

  private String fill(GoalKey goal, boolean glob) {
    return pattern
        .replace("{merchant}", part(goal.merchant(), glob))
        .replace("{user}", Long.toString(goal.userId()))
        .replace("{scene}", part(goal.scene(), glob))
        .replace("{bizKey}", part(goal.bizKey(), glob));
  }

  /** In a MATCH pattern the goal's own {@code * ? [ ] \} are literal characters. */
  private static String part(String value, boolean glob) {
    return glob ? value.replaceAll("([*?\\[\\]\\\\])", "\\\\$1") : value;
  }
}
