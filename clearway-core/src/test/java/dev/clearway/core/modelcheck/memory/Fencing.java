package dev.clearway.core.modelcheck.memory;

/** Which writes the in-memory stores refuse. */
public enum Fencing {
  /**
   * The SQL as it is: a transition is a compare-and-set on (id, status, version) and a frozen flag
   * only; a reschedule also compares the lease owner the row was read under; a freeze is
   * unconditional; a manual RESUME keeps the version.
   */
  NONE,
  /**
   * Every automatic write also requires that the row's lease owner is the writer's own token (see
   * {@link WriterTokens} for where that token comes from), and a manual command bumps the version.
   */
  LEASE
}
