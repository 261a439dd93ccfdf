package dev.clearway.core.refundbatch.port;

import dev.clearway.core.refund.domain.NewRefund;
import dev.clearway.core.refund.port.RefundStore.CreateOutcome;

/**
 * The refund engine's own entry for after-sales refunds (the service's {@code RefundService}): it
 * creates the refund order, or returns the one bound to the request's key, and sets it going. It
 * may throw {@link dev.clearway.core.runtime.Overloaded} when the refund engine has no thread free;
 * the order exists all the same and the next request for it is a replay.
 */
@FunctionalInterface
public interface BatchRefundEntry {
  CreateOutcome request(NewRefund request);
}
