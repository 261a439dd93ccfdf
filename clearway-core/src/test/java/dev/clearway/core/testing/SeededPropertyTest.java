package dev.clearway.core.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The property runner itself: failures name their seed and the smallest case; seeds replay. */
class SeededPropertyTest {

  @Test
  void aFailureReportsTheSmallestFailingCaseAndItsSeed() {
    // Lists of 0..50 numbers; the property "no list holds a number above 90" fails on many.
    SeededProperty<List<Integer>> property =
        SeededProperty.of("no big numbers", SeededPropertyTest::numbers, List::size);
    String before = System.getProperty("clearway.seed.base");
    System.setProperty("clearway.seed.base", "20261203");
    Throwable failure;
    try {
      failure =
          org.junit.jupiter.api.Assertions.assertThrows(
              AssertionError.class,
              () -> property.check(300, list -> assertThat(list).allMatch(n -> n <= 90)));
    } finally {
      restore("clearway.seed.base", before);
    }

    assertThat(failure.getMessage())
        .contains("property 'no big numbers' failed")
        .contains("replay it with -Dclearway.seed=");
    long seed =
        Long.parseLong(failure.getMessage().replaceAll("(?s).*-Dclearway\\.seed=(-?\\d+).*", "$1"));
    // The reported case is the one that seed draws, and no failing case tried is smaller.
    List<Integer> replayed = numbers(new Random(seed));
    assertThat(replayed).anyMatch(n -> n > 90);
    assertThat(failure.getMessage()).contains("size " + replayed.size());
    assertThat(replayed.size()).isEqualTo(smallestOfTheFirstTenFailures(20261203L));
  }

  private static List<Integer> numbers(Random random) {
    return Gen.listOf(random, 0, 50, g -> Gen.between(g, 0, 100));
  }

  /** The runner's own walk, redone here: cases in order until ten fail, the smallest of them. */
  private static int smallestOfTheFirstTenFailures(long base) {
    int smallest = Integer.MAX_VALUE;
    int failures = 0;
    for (int i = 0; i < 300 && failures < 10; i++) {
      List<Integer> drawn = numbers(new Random(SeededProperty.caseSeed(base, i)));
      if (drawn.stream().anyMatch(n -> n > 90)) {
        failures++;
        smallest = Math.min(smallest, drawn.size());
      }
    }
    return smallest;
  }

  private static void restore(String key, String before) {
    if (before == null) {
      System.clearProperty(key);
    } else {
      System.setProperty(key, before);
    }
  }

  @Test
  void theSameBaseSeedDrawsTheSameCases() {
    List<Integer> first = new ArrayList<>();
    List<Integer> second = new ArrayList<>();
    String before = System.getProperty("clearway.seed.base");
    System.setProperty("clearway.seed.base", "42");
    try {
      SeededProperty.of("draw", r -> r.nextInt()).check(20, first::add);
      SeededProperty.of("draw", r -> r.nextInt()).check(20, second::add);
    } finally {
      restore("clearway.seed.base", before);
    }
    assertThat(first).hasSize(20).isEqualTo(second);
  }

  @Test
  void aPassingPropertyThrowsNothing() {
    assertThatThrownBy(
            () -> SeededProperty.of("fails", r -> 1).check(5, n -> assertThat(n).isZero()))
        .isInstanceOf(AssertionError.class);
    SeededProperty.of("holds", r -> 1).check(5, n -> assertThat(n).isOne());
  }
}
