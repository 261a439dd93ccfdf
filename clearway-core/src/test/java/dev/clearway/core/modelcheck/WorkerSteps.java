package dev.clearway.core.modelcheck;

import dev.clearway.core.modelcheck.Explorer.Move;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The moves of one worker: its program is replayed to the call it waits on, and each outcome the
 * world allows for that call is one move (one for store calls). A move runs the call against a
 * fresh copy of the world, runs the program on to its next yield point and folds both back into a
 * new state.
 */
public final class WorkerSteps {
  private WorkerSteps() {}

  /** How a model builds its world, runs a worker's program in it and checks a step. */
  public interface Rig<S, W> {
    Instant now(S state);

    /** A fresh mutable world holding the state's rows and ledgers. */
    W world(S state);

    Consumer<Session> program(WorkerState worker, W world);

    List<String> outcomes(W world, Pending call);

    /** Attributes the writes of the coming step to {@code worker}. */
    void actingAs(W world, WorkerState worker);

    /** The state after the step: the world's rows and ledgers, and the worker at {@code index}. */
    S after(S before, W world, int index, WorkerState worker);

    /** What the step broke, given the world it wrote to. */
    List<String> check(S before, S after, W world, WorkerState worker);
  }

  public static <S, W> List<Move<S>> moves(Rig<S, W> rig, S state, int index, WorkerState w) {
    Instant now = rig.now(state);
    String who = w.runId() + " [" + w.program() + "] ";
    Pending call = w.pending();
    if (call == null) {
      WorkerRun.Result where = WorkerRun.pending(w.log(), now, rig.program(w, rig.world(state)));
      if (!(where instanceof WorkerRun.Waiting waiting)) {
        String why = where instanceof WorkerRun.Failed f ? Show.error(f.error()) : "ended early";
        return List.of(new Move<>(who + "cannot start", state, List.of(who + why)));
      }
      call = waiting.pending();
    }
    List<Move<S>> moves = new ArrayList<>();
    for (String outcome : rig.outcomes(rig.world(state), call)) {
      W world = rig.world(state);
      rig.actingAs(world, w);
      WorkerRun.Result result = WorkerRun.step(w.log(), now, outcome, rig.program(w, world));
      WorkerState next =
          result instanceof WorkerRun.Waiting waits
              ? w.waiting(waits.log(), waits.pending())
              : w.finished();
      S after = rig.after(state, world, index, next);
      List<String> broken = new ArrayList<>(rig.check(state, after, world, w));
      if (result instanceof WorkerRun.Failed failed) {
        broken.add(who + "threw " + Show.error(failed.error()));
      }
      StepLabel label = new StepLabel(w, call, outcome, result.log());
      moves.add(new Move<>(label, after, List.copyOf(broken)));
    }
    return moves;
  }

  /** Who ran which call with which outcome, and its answer; rendered only for a trace. */
  private record StepLabel(WorkerState worker, Pending call, String outcome, List<Answer> log) {
    @Override
    public String toString() {
      return worker.runId()
          + " ["
          + worker.program()
          + "] "
          + call.call()
          + (outcome.equals("ok") ? "" : " (" + outcome + ")")
          + " => "
          + Show.value(answer());
    }

    /** The answer of the call the step ran: the first port answer after the recorded ones. */
    private Object answer() {
      for (int i = worker.log().size(); i < log.size(); i++) {
        if (!log.get(i).call().equals("clock")) {
          return log.get(i).value();
        }
      }
      return "-";
    }
  }
}
