package dev.clearway.core.modelcheck;

/**
 * One input a worker received: the answer of a port call or a clock reading. A worker's local state
 * is a function of its answers, because the code it runs is deterministic; a recorded list of
 * answers therefore stands for the worker's stack between two steps.
 *
 * @param call {@code Port.method} or {@code clock}
 * @param value what the call returned ({@link Thrown} when it threw)
 */
public record Answer(String call, Object value) {

  /** A port call that threw: replayed by throwing again. */
  public record Thrown(Class<? extends Throwable> type, String message) {}

  @Override
  public String toString() {
    return call + " -> " + value;
  }
}
