package dev.clearway.core.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The property runner itself: failures name their seed and the smallest case; seeds replay. */
class SeededPropertyTest {

  @Test
  void aFailureReportsTheSmallestFailingCaseAndItsSeed() {
    // Lists of 0..50 numbers; the property "no list holds a number above 90" fails on many.
    SeededProperty<List<Integer>> property =
        SeededProperty.of(
            "no big numbers", r -> Gen.listOf(r, 0, 50, g -> Gen.between(g, 0, 100)), List::size);

    Throwable failure =
        org.junit.jupiter.api.Assertions.assertThrows(
            AssertionError.class,
            () -> property.check(300, list -> assertThat(list).allMatch(n -> n <= 90)));

    assertThat(failure.getMessage())
        .contains("property 'no big numbers' failed")
        .contains("replay it with -Dclearway.seed=");
    long seed =
        Long.parseLong(failure.getMessage().replaceAll("(?s).*-Dclearway\\.seed=(-?\\d+).*", "$1"));
    // The reported case is the one that seed draws, and it is small: a handful of numbers.
    List<Integer> replayed =
        Gen.listOf(new java.util.Random(seed), 0, 50, g -> Gen.between(g, 0, 100));
    assertThat(replayed).anyMatch(n -> n > 90);
    assertThat(failure.getMessage()).contains("size " + replayed.size());
    assertThat(replayed.size()).isLessThan(25);
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
      if (before == null) {
        System.clearProperty("clearway.seed.base");
      } else {
        System.setProperty("clearway.seed.base", before);
      }
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
