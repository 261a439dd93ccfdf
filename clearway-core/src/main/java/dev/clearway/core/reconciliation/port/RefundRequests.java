package dev.clearway.core.reconciliation.port;

import dev.clearway.core.refund.domain.NewRefund;
import dev.clearway.core.refund.port.RefundStore.CreateOutcome;

/**
 * Requests a refund through the refund engine's one entry ({@code RefundService#request}): the
 * store decides whether it is allowed and fits, and a repeat of the same key answers the refund on
 * record instead of creating another.
 */
@FunctionalInterface
public interface RefundRequests {
  CreateOutcome request(NewRefund request);
}
