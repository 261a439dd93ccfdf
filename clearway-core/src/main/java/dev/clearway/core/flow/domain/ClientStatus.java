package dev.clearway.core.flow.domain;

/**
 * What a client is told: a projection of the status and the review state, not a copy of the state
 * machine. PROCESSING covers every non-terminal state, except that a payment waiting for the
 * customer (a QR code to scan, a JSAPI payment to confirm, a 3-D Secure challenge) is
 * REQUIRES_ACTION until the customer acts or the flow closes it at its unpaid timeout; a flow a
 * person must look at is MANUAL_REVIEW whatever its status.
 */
public enum ClientStatus {
  BIZ_SUCCESS,
  PAY_FAIL,
  PROCESSING,
  REQUIRES_ACTION,
  REFUNDED,
  CLOSED,
  MANUAL_REVIEW;

  public static ClientStatus of(PayFlow flow) {
    if (flow.reviewState().needsPerson()) {
      return MANUAL_REVIEW;
    }
    return switch (flow.status()) {
      case BIZ_SUCCESS -> BIZ_SUCCESS;
      case PAY_FAIL -> PAY_FAIL;
      case REFUNDED -> REFUNDED;
      case CLOSED -> CLOSED;
      case WAIT_PAY, PAYING, PAYED, REFUNDING -> PROCESSING;
    };
  }

  /**
   * As {@link #of(PayFlow)}, for a flow whose payment {@code awaitsCustomer} (its live attempt is
   * pending on the customer): REQUIRES_ACTION while it is still paying.
   */
  public static ClientStatus of(PayFlow flow, boolean awaitsCustomer) {
    ClientStatus status = of(flow);
    return status == PROCESSING && awaitsCustomer ? REQUIRES_ACTION : status;
  }

  /** Whether the client should poll again. */
  public boolean isFinal() {
    return this != PROCESSING && this != REQUIRES_ACTION;
  }
}
