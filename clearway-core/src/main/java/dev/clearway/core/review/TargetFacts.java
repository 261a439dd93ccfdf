package dev.clearway.core.review;

import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.RecoveryTask.TaskStatus;
import dev.clearway.core.refund.domain.RefundStatus;

/** What a command's applicability depends on: the target's state as read, under its lock. */
public sealed interface TargetFacts {

  TargetKind kind();

  /** The status pinned by a proposal and compared again at approval. */
  String status();

  /** An after-sales refund order. */
  record Refund(RefundStatus refund) implements TargetFacts {
    @Override
    public TargetKind kind() {
      return TargetKind.REFUND_ORDER;
    }

    @Override
    public String status() {
      return refund.name();
    }
  }

  /** A payment attempt and its recovery task's status (null when it has none). */
  record Attempt(AttemptStatus attempt, TaskStatus task) implements TargetFacts {
    @Override
    public TargetKind kind() {
      return TargetKind.ATTEMPT;
    }

    @Override
    public String status() {
      return attempt.name();
    }
  }

  /** A compensation. */
  record Compensation(CompensationStatus compensation) implements TargetFacts {
    @Override
    public TargetKind kind() {
      return TargetKind.COMPENSATION;
    }

    @Override
    public String status() {
      return compensation.name();
    }
  }
}
