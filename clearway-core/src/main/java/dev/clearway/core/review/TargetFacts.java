package dev.clearway.core.review;

import dev.clearway.core.channel.decision.AttemptDecision;
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

  /**
   * A payment attempt, its recovery task's status (null when it has none) and the task's last error
   * (null when none): a task MANUAL with {@link AttemptDecision#AMOUNT_MISMATCH} holds an attempt
   * the PSP charged for another amount than it asked.
   */
  record Attempt(AttemptStatus attempt, TaskStatus task, String taskError) implements TargetFacts {
    public Attempt(AttemptStatus attempt, TaskStatus task) {
      this(attempt, task, null);
    }

    /** The PSP charged another amount than the attempt asked, and a person must decide. */
    public boolean amountMismatch() {
      return task == TaskStatus.MANUAL && AttemptDecision.AMOUNT_MISMATCH.equals(taskError);
    }

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
