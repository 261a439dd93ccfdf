package dev.clearway.core.modelcheck;

import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs a worker's real program from its start, replaying its recorded answers, up to its next yield
 * point. With an outcome, the pending call runs against the model first: that is one step.
 */
public final class WorkerRun {
  private WorkerRun() {}

  /** Where a replay ended. */
  public sealed interface Result {
    List<Answer> log();
  }

  /** Blocked on {@code pending}. */
  public record Waiting(List<Answer> log, Pending pending) implements Result {}

  /** The program returned. */
  public record Finished(List<Answer> log) implements Result {}

  /** The program threw (not because it was suspended): a finding in itself. */
  public record Failed(List<Answer> log, Throwable error) implements Result {}

  /** The call the worker is blocked on (or how it ended), without running anything. */
  public static Result pending(List<Answer> log, Instant now, Consumer<Session> program) {
    return run(log, now, null, program);
  }

  /** Runs the pending call with {@code outcome}, then up to the next yield point. */
  public static Result step(
      List<Answer> log, Instant now, String outcome, Consumer<Session> program) {
    return run(log, now, outcome, program);
  }

  private static Result run(
      List<Answer> log, Instant now, String outcome, Consumer<Session> program) {
    Session session = new Session(log, now, outcome);
    Throwable[] error = {null};
    ReplayRandom.replaying(
        () -> {
          try {
            program.accept(session);
          } catch (Suspend e) {
            // the worker waits at its next yield point
          } catch (RuntimeException | AssertionError e) {
            error[0] = e;
          }
        });
    if (session.suspendedAt() != null) {
      return new Waiting(session.log(), session.suspendedAt());
    }
    if (error[0] != null) {
      return new Failed(session.log(), error[0]);
    }
    return new Finished(session.log());
  }
}
