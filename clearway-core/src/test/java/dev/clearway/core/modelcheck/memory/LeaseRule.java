package dev.clearway.core.modelcheck.memory;

import java.util.Set;

/** Which worker writes must be made under the writer's own lease for a step to be legal. */
public enum LeaseRule {
  /** Not checked: only the money, machine and progress rules. */
  OFF,
  /** Every write of a worker. */
  EVERY_WRITE,
  /**
   * Every write whose port carries the writer's token ({@link WriterTokens}); the others are {@link
   * #UNCARRIED} and listed as what the ports still lack. Empty once every port carries it.
   */
  CARRIED_WRITES;

  /**
   * Operations (as the in-memory stores name them) whose port carries no writer token today: a
   * flow's freeze, and a channel record or task resolution (no owner of the task's lease).
   */
  public static final Set<String> UNCARRIED = Set.of("freeze", "record", "resolveTask");

  /** Whether a write of operation {@code op} must hold the lease. */
  public boolean applies(String op) {
    return switch (this) {
      case OFF -> false;
      case EVERY_WRITE -> true;
      case CARRIED_WRITES -> !UNCARRIED.contains(op);
    };
  }
}
