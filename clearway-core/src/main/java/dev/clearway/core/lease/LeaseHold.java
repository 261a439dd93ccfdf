package dev.clearway.core.lease;

import dev.clearway.core.flow.engine.Trigger;
import dev.clearway.core.flow.port.FlowStore.Lease;

/**
 * One advance of a leased row: who triggered it, the lease it holds and when the current step
 * began. Every write of the advance is fenced by {@link #holder()}.
 */
public final class LeaseHold {
  private final Trigger trigger;
  private final Lease lease;
  private long startedAt;

  LeaseHold(Trigger trigger, Lease lease) {
    this.trigger = trigger;
    this.lease = lease;
  }

  public Trigger trigger() {
    return trigger;
  }

  public Lease lease() {
    return lease;
  }

  /** The token every write of this advance is fenced by. */
  public String holder() {
    return lease.token();
  }

  /** When the current step began (the engine clock's millis). */
  public long startedAt() {
    return startedAt;
  }

  void start(long millis) {
    startedAt = millis;
  }
}
