package dev.clearway.core.modelcheck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.modelcheck.Explorer.Move;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExplorerTest {

  /** Counts up by one or by three; 7 is forbidden; 7 is reached by 3+3+1 at the earliest. */
  private static final class Counter implements Explorer.Model<Integer> {
    @Override
    public String name() {
      return "counter";
    }

    @Override
    public List<Integer> initial() {
      return List.of(0);
    }

    @Override
    public List<Move<Integer>> moves(Integer n) {
      return List.of(step(n, 1), step(n, 3));
    }

    private static Move<Integer> step(int n, int by) {
      int next = n + by;
      return new Move<>("+" + by, next, next == 7 ? List.of("reached 7") : List.of());
    }

    @Override
    public List<String> check(Integer n) {
      return List.of();
    }

    @Override
    public String describe(Integer n) {
      return "n=" + n;
    }
  }

  @Test
  void theFirstViolationFoundIsAShortestTrace() {
    Explorer.Report report = Explorer.explore(new Counter(), 10, 1_000);

    assertThat(report.violation()).isNotNull();
    assertThat(report.violation().trace()).hasSize(3);
    assertThat(report.violation().trace().get(2).after()).isEqualTo("n=7");
    assertThat(report.violation().problems()).containsExactly("reached 7");
  }

  @Test
  void eachDistinctStateIsCountedOnce() {
    Explorer.Report report = Explorer.explore(new Counter(), 2, 1_000);

    // 0; then 1, 3; then 2, 4 (twice), 6: six distinct states, six moves
    assertThat(report.states()).isEqualTo(6);
    assertThat(report.moves()).isEqualTo(6);
    assertThat(report.violation()).isNull();
  }
}
