package dev.clearway.core.flow.engine;

import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore.Lease;

/**
 * One reason to advance a flow. It carries no snapshot of the flow: the advancer always re-reads
 * the row. {@code lease} is set when the caller already holds the flow (creation, scanner batch).
 */
public record Trigger(TriggerSource source, Lease lease) {

  public static Trigger unclaimed(TriggerSource source) {
    return new Trigger(source, null);
  }

  public static Trigger held(TriggerSource source, Lease lease) {
    return new Trigger(source, lease);
  }
}
