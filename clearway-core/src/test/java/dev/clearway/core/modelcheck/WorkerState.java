package dev.clearway.core.modelcheck;

import java.util.List;
import java.util.Objects;

/**
 * One worker between two steps: its name, how many programs it has started (its lease tokens and
 * recovery owner name carry that number, so each run holds its own leases), the program it runs
 * (null when idle) and the answers that program has received. A value: equality is on those four;
 * the call it waits on is remembered alongside (it follows from them) so that it is not replayed
 * again to be found.
 */
public final class WorkerState {
  private final String name;
  private final int runs;
  private final String program;
  private final List<Answer> log;
  private final Pending pending;
  private final int hash;

  private WorkerState(String name, int runs, String program, List<Answer> log, Pending pending) {
    this.name = name;
    this.runs = runs;
    this.program = program;
    this.log = log;
    this.pending = pending;
    this.hash = Objects.hash(name, runs, program, log);
  }

  public static WorkerState idle(String name) {
    return new WorkerState(name, 0, null, List.of(), null);
  }

  public String name() {
    return name;
  }

  public int runs() {
    return runs;
  }

  public String program() {
    return program;
  }

  public List<Answer> log() {
    return log;
  }

  /** The call the worker waits on, when known without a replay. */
  Pending pending() {
    return pending;
  }

  public boolean busy() {
    return program != null;
  }

  /** The identity of the current run: the prefix of every lease token it mints. */
  public String runId() {
    return name + "#" + runs;
  }

  /** Starts {@code program} as the next run. */
  public WorkerState start(String newProgram) {
    return new WorkerState(name, runs + 1, newProgram, List.of(), null);
  }

  /** The same run, after more answers, waiting on {@code next}. */
  WorkerState waiting(List<Answer> newLog, Pending next) {
    return new WorkerState(name, runs, program, newLog, next);
  }

  public WorkerState finished() {
    return new WorkerState(name, runs, null, List.of(), null);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof WorkerState w
        && hash == w.hash
        && runs == w.runs
        && name.equals(w.name)
        && Objects.equals(program, w.program)
        && log.equals(w.log);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return runId() + (busy() ? " [" + program + "] after " + log.size() + " answers" : " idle");
  }
}
