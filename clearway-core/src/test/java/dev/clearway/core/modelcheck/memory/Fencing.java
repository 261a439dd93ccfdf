package dev.clearway.core.modelcheck.memory;

/** Which writes the in-memory stores refuse. */
public enum Fencing {
  /**
   * The old SQL semantics, before writes were fenced by the writer's lease: a flow or refund
   * transition is a compare-and-set on (id, status, version) (and not frozen) only; a reschedule
   * also compares the lease owner the row was read under (not the writer's own token); a freeze is
   * unconditional; a manual RESUME keeps the version; an attempt record compares the attempt's
   * version only and changes its task whoever holds it. Kept to show that the checker finds the
   * lease defect that the fence fixes.
   */
  NONE,
  /**
   * The SQL as it is: every automatic write also requires that the row's (or the attempt's task's)
   * lease owner is the writer's own token, carried by the port ({@link WriterTokens}); a command
   * without a lease is fenced by the version; a manual command bumps the version.
   */
  LEASE
}
