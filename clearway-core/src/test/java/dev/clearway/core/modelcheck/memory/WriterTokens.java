package dev.clearway.core.modelcheck.memory;

import dev.clearway.core.channel.port.ChannelStore.AttemptChange;
import dev.clearway.core.port.FlowStore;
import dev.clearway.core.refund.RefundStore;

/**
 * The lease token a write claims to hold, as far as the ports carry it. This is the one place to
 * change once the ports carry the writer's own token: each method then returns that field.
 *
 * <p>Today a transition carries only the new owner (null for terminal targets), so the token the
 * row was read under stands in for the writer's: the advancers only write rows that they read under
 * their own lease, or that their own last write returned. A freeze carries nothing at all and a
 * channel record carries no owner of the task: those writes cannot be fenced yet.
 */
public final class WriterTokens {
  private WriterTokens() {}

  public static String of(FlowStore.TransitionWrite write) {
    return write.from().leaseOwner();
  }

  public static String of(FlowStore.RescheduleWrite write) {
    return write.from().leaseOwner();
  }

  public static String of(RefundStore.TransitionWrite write) {
    return write.from().leaseOwner();
  }

  public static String of(RefundStore.RescheduleWrite write) {
    return write.from().leaseOwner();
  }

  /** A freeze carries no token: unknown, so it cannot be fenced. */
  public static String ofFreeze() {
    return null;
  }

  /** An attempt record carries the task id but not the owner of the task's lease. */
  public static String of(AttemptChange change) {
    return null;
  }
}
