package dev.clearway.core.flow.engine;

import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore.Lease;

/**
 * One reason to advance a flow. {@code lease} is set when the caller already holds the flow
 * (creation, scanner batch). {@code claimed} is set only with the row the caller's own statement
 * wrote and returned under that lease (a scanner's claim): the advancer starts from it while the
 * lease is live, and otherwise claims afresh and re-reads the row.
 */
public record Trigger(TriggerSource source, Lease lease, PayFlow claimed) {

  public Trigger {
    if (claimed != null && lease == null) {
      throw new IllegalArgumentException("a claimed row comes with the lease it was claimed under");
    }
  }

  public static Trigger unclaimed(TriggerSource source) {
    return new Trigger(source, null, null);
  }

  public static Trigger held(TriggerSource source, Lease lease) {
    return new Trigger(source, lease, null);
  }

  /** A row claimed under {@code lease}, as the claim returned it. */
  public static Trigger claimed(TriggerSource source, Lease lease, PayFlow row) {
    return new Trigger(source, lease, row);
  }
}
