package dev.clearway.core.modelcheck;

import java.util.List;

/**
 * A fake of the outside world whose answers are branch points of the explorer: for a pending call
 * it lists every outcome the world's current state allows, and it is told which one happens.
 */
public interface Scripted {

  /** The outcomes of {@code call} in the current state; one element for deterministic calls. */
  List<String> outcomes(Pending call);

  /** The outcome of the next call, chosen by the explorer. */
  void choose(String outcome);
}
