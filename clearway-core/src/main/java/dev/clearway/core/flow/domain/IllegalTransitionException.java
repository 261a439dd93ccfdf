package dev.clearway.core.flow.domain;

/** Raised when code asks for a transition that the table does not contain. */
public final class IllegalTransitionException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public IllegalTransitionException(FlowStatus from, FlowStatus to) {
    super("illegal transition " + from + " -> " + to);
  }
}
