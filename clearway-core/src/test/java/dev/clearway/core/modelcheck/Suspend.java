package dev.clearway.core.modelcheck;

/**
 * Thrown out of a port call to stop a replayed worker at its next yield point. An {@link Error}, so
 * that production code that catches exceptions does not swallow it; a session that has suspended
 * throws it again on any later call, so code that catches it anyway cannot go on.
 */
final class Suspend extends Error {
  private static final long serialVersionUID = 1L;

  Suspend() {
    super("suspended at a yield point", null, false, false);
  }
}
