package dev.clearway.core.testing;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * A property checked over cases drawn from a seeded generator. Every case has its own seed; a
 * failure reports the smallest failing case among those tried, with its seed, and {@code
 * -Dclearway.seed=SEED} replays exactly that case (and only that one, for every property that
 * runs). {@code -Dclearway.seed.base=N} fixes the seeds of a whole run.
 */
public final class SeededProperty<C> {
  /** Stop collecting failures after this many: the smallest among them is reported. */
  private static final int MAX_FAILURES = 10;

  private final String name;
  private final Function<Random, C> generator;
  private final ToIntFunction<C> size;

  private SeededProperty(String name, Function<Random, C> generator, ToIntFunction<C> size) {
    this.name = name;
    this.generator = generator;
    this.size = size;
  }

  /**
   * @param size how big a case is; the smallest failing case is the one reported
   */
  public static <C> SeededProperty<C> of(
      String name, Function<Random, C> generator, ToIntFunction<C> size) {
    return new SeededProperty<>(name, generator, size);
  }

  /** A property whose cases are all of one size. */
  public static <C> SeededProperty<C> of(String name, Function<Random, C> generator) {
    return new SeededProperty<>(name, generator, c -> 0);
  }

  /** Checks {@code property} on {@code cases} cases (one, the replayed one, under a seed). */
  public void check(int cases, Consumer<C> property) {
    Long replay = Long.getLong("clearway.seed");
    long base = Long.getLong("clearway.seed.base", new Random().nextLong());
    List<Failure<C>> failures = new ArrayList<>();
    int tried = 0;
    for (int i = 0; i < (replay != null ? 1 : cases) && failures.size() < MAX_FAILURES; i++) {
      long seed = replay != null ? replay : caseSeed(base, i);
      C drawn = generator.apply(new Random(seed));
      tried++;
      try {
        property.accept(drawn);
      } catch (AssertionError | RuntimeException e) {
        failures.add(new Failure<>(seed, drawn, size.applyAsInt(drawn), e));
      }
    }
    if (failures.isEmpty()) {
      return;
    }
    Failure<C> smallest =
        failures.stream().min(Comparator.comparingInt(Failure::size)).orElseThrow();
    String message =
        "property '%s' failed for %d of %d cases tried; smallest failing case (size %d, seed %d):%n%s%nreplay it with -Dclearway.seed=%d"
            .formatted(
                name,
                failures.size(),
                tried,
                smallest.size(),
                smallest.seed(),
                smallest.drawn(),
                smallest.seed());
    System.err.println(message);
    throw new AssertionError(message, smallest.cause());
  }

  /** Seeds of one run, spread so that neighbouring cases do not share a stream. */
  static long caseSeed(long base, int index) {
    long z = base + (index + 1) * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  private record Failure<C>(long seed, C drawn, int size, Throwable cause) {}
}
