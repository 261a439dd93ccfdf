package dev.clearway.sim;

/**
 * Thrown by a simulator after its side effect committed, to model the advancing worker dying
 * between the external call and the state write. An {@link Error}, so that no ordinary catch in the
 * engine swallows it: the worker's thread unwinds exactly as if the process had stopped.
 */
public final class SimulatedCrash extends Error {
  private static final long serialVersionUID = 1L;

  public SimulatedCrash(String where) {
    super("simulated crash after " + where, null, false, false);
  }
}
