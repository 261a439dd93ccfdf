package dev.clearway.core.modelcheck.memory;

import java.util.List;

/**
 * One row an in-memory store changed: who wrote (the run id of a worker, or a person or client),
 * which operation, the lease owner of the row before the write (what the lease rule looks at), and
 * the row before and after.
 */
public record Write(String writer, String op, String leaseBefore, Object before, Object after) {

  /** Whether the writer is an engine worker (its run id starts with W), which needs a lease. */
  public boolean byWorker() {
    return writer.startsWith("W");
  }

  /**
   * Adds to {@code broken} the write of a worker that did not hold the row's lease: the owner
   * before the write must be one of the tokens of the writer's run (they start with its run id).
   */
  public static void requireLease(List<Write> writes, LeaseRule rule, List<String> broken) {
    for (Write w : writes) {
      if (!w.byWorker() || w.before() == null || !rule.applies()) {
        continue; // a person or a client holds no lease; a created row has no owner before
      }
      String owner = w.leaseBefore();
      if (owner == null || !owner.startsWith(w.writer() + "/")) {
        broken.add(
            "write without the lease: "
                + w.writer()
                + " did "
                + w.op()
                + " on a row held by "
                + (owner == null ? "nobody" : owner));
      }
    }
  }
}
