package dev.clearway.core.engine;

import dev.clearway.core.port.FlowStore.Lease;

/** One advance call: who triggered it, which lease it holds, when the current step began. */
final class AdvanceStep {
  final Trigger trigger;
  final Lease lease;
  private long startedAt;

  AdvanceStep(Trigger trigger, Lease lease) {
    this.trigger = trigger;
    this.lease = lease;
  }

  void start(long millis) {
    startedAt = millis;
  }

  long startedAt() {
    return startedAt;
  }

  /** The token every write of this advance is fenced by. */
  String holder() {
    return lease.token();
  }
}
