package dev.clearway.core.modelcheck.memory;

import dev.clearway.core.channel.port.AttemptStore.AttemptChange;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.refund.port.RefundStore;

/**
 * The lease token a write claims to hold, as the ports carry it: the writer's own token ({@code
 * holder}, {@code taskLease}), never the owner the row happened to be read under. Null for a writer
 * that holds no lease (a command through the API; an observer of an attempt: a webhook, a close).
 */
public final class WriterTokens {
  private WriterTokens() {}

  public static String of(FlowStore.TransitionWrite write) {
    return write.holder();
  }

  public static String of(FlowStore.RescheduleWrite write) {
    return write.holder();
  }

  public static String of(RefundStore.TransitionWrite write) {
    return write.holder();
  }

  public static String of(RefundStore.RescheduleWrite write) {
    return write.holder();
  }

  /** The token of the task's lease an attempt record is made under; null for an observer. */
  public static String of(AttemptChange change) {
    return change.taskLease();
  }
}
