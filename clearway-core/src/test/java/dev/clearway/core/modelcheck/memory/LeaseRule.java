package dev.clearway.core.modelcheck.memory;

/** Whether a worker's writes must be made under the writer's own lease for a step to be legal. */
public enum LeaseRule {
  /** Not checked: only the money, machine and progress rules. */
  OFF,
  /**
   * Every write of a worker (flow transitions, reschedules and freezes; refund transitions and
   * reschedules; attempt records, task reschedules and task resolutions) must be made while the row
   * or the attempt's task is held by one of the writer's own tokens.
   */
  EVERY_WRITE;

  /** Whether the writes of a worker are held to the lease. */
  public boolean applies() {
    return this == EVERY_WRITE;
  }
}
