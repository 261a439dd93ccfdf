package dev.clearway.core.refundbatch.decision;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.refund.port.RefundStore.CreateOutcome;
import dev.clearway.core.refundbatch.domain.ItemOutcome;

/**
 * What one batch item becomes, from what the refund engine's entry answered for the batch's request
 * (pure).
 *
 * <ul>
 *   <li>Created: ORDERED, the refund engine carries the order out.
 *   <li>Replayed: this batch created the order before a restart (or a cancelled batch left it
 *       unrecorded): ORDERED. An order an earlier batch recorded is found before the entry is
 *       called, in the store ({@code BatchRunStore.markPriorBatchRefunds}).
 *   <li>Amount exceeds what is left: nothing left is ALREADY_REFUNDED (a merchant's refunds or a
 *       compensation took it); a part left is NEEDS_PERSON (refunding the rest is a decision).
 *   <li>Flow not BIZ_SUCCESS: REFUNDED by the engine's compensation is ALREADY_REFUNDED; anything
 *       else is FAILED. No flow: FAILED. Key used with other parameters: NEEDS_PERSON.
 * </ul>
 */
public final class ItemDecision {
  private ItemDecision() {}

  /** The item's outcome, the refund order it names (or null) and a short detail. */
  public record Result(ItemOutcome outcome, Long refundId, String detail) {}

  public static Result decide(CreateOutcome outcome) {
    if (outcome instanceof CreateOutcome.Created c) {
      return new Result(ItemOutcome.ORDERED, c.refund().id(), null);
    }
    if (outcome instanceof CreateOutcome.Replayed r) {
      return new Result(ItemOutcome.ORDERED, r.refund().id(), null);
    }
    if (outcome instanceof CreateOutcome.ExceedsPayment e) {
      return e.available() <= 0
          ? new Result(ItemOutcome.ALREADY_REFUNDED, null, "refunded outside the batch")
          : new Result(
              ItemOutcome.NEEDS_PERSON,
              null,
              "partly refunded already, " + e.available() + " left");
    }
    if (outcome instanceof CreateOutcome.NotAllowed n) {
      return n.status() == FlowStatus.REFUNDED
          ? new Result(ItemOutcome.ALREADY_REFUNDED, null, "compensation refunded")
          : new Result(ItemOutcome.FAILED, null, "payment is " + n.status());
    }
    if (outcome instanceof CreateOutcome.FlowNotFound) {
      return new Result(ItemOutcome.FAILED, null, "no payment");
    }
    return new Result(ItemOutcome.NEEDS_PERSON, null, "batch key used with other parameters");
  }
}
