package dev.clearway.core.flow.domain;

import java.util.Optional;

/**
 * The domain events other systems hear about (orders, accounting): one per transition into a state
 * that states a fact, written to the outbox by the same statement as the transition.
 */
public enum DomainEvent {
  /** The wallet charged (PAYED); the business result is still open. */
  PaymentCaptured,
  /** Charged and granted to this attempt (BIZ_SUCCESS). */
  PaymentSucceeded,
  /** The wallet definitely did not charge (PAY_FAIL). */
  PaymentFailed,
  /** Closed before any payment side effect (CLOSED). */
  PaymentClosed,
  /** The compensation refund succeeded (REFUNDED). */
  RefundSucceeded;

  /** The event a transition into {@code to} publishes, if any. */
  public static Optional<DomainEvent> onEntering(FlowStatus to) {
    return switch (to) {
      case PAYED -> Optional.of(PaymentCaptured);
      case BIZ_SUCCESS -> Optional.of(PaymentSucceeded);
      case PAY_FAIL -> Optional.of(PaymentFailed);
      case CLOSED -> Optional.of(PaymentClosed);
      case REFUNDED -> Optional.of(RefundSucceeded);
      case WAIT_PAY, PAYING, REFUNDING -> Optional.empty();
    };
  }

  /** Stable per transition: consumers deduplicate by it. */
  public static String eventId(long flowId, long version) {
    return "flow-" + flowId + "-v" + version;
  }
}
