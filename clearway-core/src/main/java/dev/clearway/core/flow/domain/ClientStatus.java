package dev.clearway.core.flow.domain;

/**
 * What a client is told: a projection of the status and the review state, not a copy of the state
 * machine. PROCESSING covers every non-terminal state; a flow a person must look at is
 * MANUAL_REVIEW whatever its status.
 */
public enum ClientStatus {
  BIZ_SUCCESS,
  PAY_FAIL,
  PROCESSING,
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

  /** Whether the client should poll again. */
  public boolean isFinal() {
    return this != PROCESSING;
  }
}
