package dev.clearway.core.modelcheck;

import dev.clearway.core.modelcheck.Explorer.Model;
import dev.clearway.core.modelcheck.Explorer.Move;
import java.util.ArrayList;
import java.util.List;

/**
 * One chosen path through a model: from its first initial state, at each step the move whose label
 * starts with the given text. A test walks a named interleaving (a race found in review) with the
 * same moves, rules and real code as the exploration, and asserts what the rows look like after it.
 */
public final class Walk {
  private Walk() {}

  /** The states after each step (the start first) and every rule a step or state broke. */
  public record Path<S>(List<S> states, List<String> labels, List<String> broken) {
    public S last() {
      return states.get(states.size() - 1);
    }
  }

  /**
   * Follows {@code steps}; fails (IllegalStateException, listing the moves there were) when a step
   * has no move whose label starts with its text.
   */
  public static <S> Path<S> follow(Model<S> model, String... steps) {
    S state = model.initial().get(0);
    List<S> states = new ArrayList<>(List.of(state));
    List<String> labels = new ArrayList<>();
    List<String> broken = new ArrayList<>(model.check(state));
    for (String step : steps) {
      List<Move<S>> moves = model.moves(state);
      Move<S> chosen =
          moves.stream()
              .filter(m -> String.valueOf(m.label()).startsWith(step))
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          "no move \""
                              + step
                              + "\" in "
                              + model.describe(states.get(states.size() - 1))
                              + "; moves: "
                              + moves.stream().map(m -> String.valueOf(m.label())).toList()));
      state = chosen.next();
      states.add(state);
      labels.add(String.valueOf(chosen.label()));
      broken.addAll(chosen.violations());
      broken.addAll(model.check(state));
    }
    return new Path<>(List.copyOf(states), List.copyOf(labels), List.copyOf(broken));
  }
}
