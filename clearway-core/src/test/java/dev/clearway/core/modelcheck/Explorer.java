package dev.clearway.core.modelcheck;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Explicit-state, breadth-first exploration of a model to a bounded depth. Breadth first, so the
 * first violation found is one of the shortest: every state at a smaller depth was checked before.
 * States are values (equals and hashCode); each distinct state is expanded once.
 */
public final class Explorer {
  private Explorer() {}

  /** A state machine to explore: its first state, its enabled moves and its state invariants. */
  public interface Model<S> {
    String name();

    /** The states exploration starts from (depth 0). */
    List<S> initial();

    /** Every move enabled in {@code state}, with what the step broke (empty when nothing). */
    List<Move<S>> moves(S state);

    /** What is wrong with a state in itself (a dead end), empty when nothing. */
    List<String> check(S state);

    /** The rows of a state, one line, for traces. */
    String describe(S state);
  }

  /**
   * One enabled step: who did what (rendered by its {@code toString} only when a trace is printed),
   * the state after it and the invariants it broke.
   */
  public record Move<S>(Object label, S next, List<String> violations) {
    public static <S> Move<S> clean(Object label, S next) {
      return new Move<>(label, next, List.of());
    }
  }

  /** One step of a trace, with the rows before and after it. */
  public record Step(String label, String before, String after) {}

  /** The broken invariants and the shortest path that breaks them. */
  public record Violation(List<String> problems, String start, List<Step> trace) {
    public String render() {
      StringBuilder out = new StringBuilder();
      out.append("violated: ").append(String.join("; ", problems)).append('\n');
      out.append("  start: ").append(start).append('\n');
      int i = 1;
      for (Step step : trace) {
        out.append(String.format("%3d. %s%n", i++, step.label()));
        out.append("       before: ").append(step.before()).append('\n');
        out.append("       after:  ").append(step.after()).append('\n');
      }
      return out.toString();
    }
  }

  /**
   * What an exploration found. {@code complete} is true when every state within {@code depth} was
   * expanded (no state limit hit).
   */
  public record Report(
      String machine,
      int states,
      long moves,
      int depth,
      boolean exhausted,
      boolean complete,
      Violation violation) {

    public String summary() {
      return String.format(
          "%s: %d distinct states, %d moves, depth %d%s%s",
          machine,
          states,
          moves,
          depth,
          exhausted ? " (every reachable state)" : "",
          violation == null ? ", no violation" : ", VIOLATION at step " + violation.trace().size());
    }
  }

  private record Parent<S>(S previous, Object label) {}

  /** Explores {@code model} breadth first to {@code maxDepth} steps, at most {@code maxStates}. */
  public static <S> Report explore(Model<S> model, int maxDepth, int maxStates) {
    Map<S, Parent<S>> seen = new HashMap<>();
    List<S> level = new ArrayList<>();
    for (S start : model.initial()) {
      if (seen.putIfAbsent(start, new Parent<>(null, "start")) != null) {
        continue;
      }
      List<String> broken = model.check(start);
      if (!broken.isEmpty()) {
        Violation v = new Violation(broken, model.describe(start), List.of());
        return report(model, seen, 0, 0, false, true, v);
      }
      level.add(start);
    }
    long moves = 0;
    for (int depth = 0; depth < maxDepth; depth++) {
      List<S> nextLevel = new ArrayList<>();
      // Successors are computed in parallel (each move works on its own copy of the world) and
      // taken in the level's order, so the exploration and its first violation are deterministic.
      List<List<Move<S>>> expanded = level.parallelStream().map(model::moves).toList();
      for (int i = 0; i < level.size(); i++) {
        S state = level.get(i);
        for (Move<S> move : expanded.get(i)) {
          moves++;
          if (!move.violations().isEmpty()) {
            Violation v = trace(model, seen, state, move.label(), move.next(), move.violations());
            return report(model, seen, moves, depth + 1, false, true, v);
          }
          if (seen.putIfAbsent(move.next(), new Parent<>(state, move.label())) != null) {
            continue;
          }
          List<String> broken = model.check(move.next());
          if (!broken.isEmpty()) {
            Violation v = trace(model, seen, state, move.label(), move.next(), broken);
            return report(model, seen, moves, depth + 1, false, true, v);
          }
          if (seen.size() > maxStates) {
            return report(model, seen, moves, depth + 1, false, false, null);
          }
          nextLevel.add(move.next());
        }
      }
      if (nextLevel.isEmpty()) {
        return report(model, seen, moves, depth, true, true, null);
      }
      level = nextLevel;
    }
    return report(model, seen, moves, maxDepth, false, true, null);
  }

  private static <S> Report report(
      Model<S> model,
      Map<S, Parent<S>> seen,
      long moves,
      int depth,
      boolean exhausted,
      boolean complete,
      Violation violation) {
    return new Report(model.name(), seen.size(), moves, depth, exhausted, complete, violation);
  }

  private static <S> Violation trace(
      Model<S> model, Map<S, Parent<S>> seen, S last, Object label, S next, List<String> problems) {
    List<Step> steps = new ArrayList<>();
    steps.add(new Step(String.valueOf(label), model.describe(last), model.describe(next)));
    S current = last;
    Parent<S> parent = seen.get(current);
    while (parent.previous() != null) {
      steps.add(
          new Step(
              String.valueOf(parent.label()),
              model.describe(parent.previous()),
              model.describe(current)));
      current = parent.previous();
      parent = seen.get(current);
    }
    Collections.reverse(steps);
    return new Violation(problems, model.describe(current), steps);
  }
}
