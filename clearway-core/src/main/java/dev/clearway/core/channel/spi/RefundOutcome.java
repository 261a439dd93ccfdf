package dev.clearway.core.channel.spi;

import java.util.Objects;

/** A PSP's answer about a refund. */
public record RefundOutcome(
    RefundState state,
    String providerStatus,
    String providerRefundId,
    String errorCode,
    String requestId,
    String rawHash) {

  public RefundOutcome {
    Objects.requireNonNull(state, "state");
  }

  public enum RefundState {
    SUCCEEDED,
    /** Accepted, still processing: query again. */
    PROCESSING,
    /** Needs a person (WeChat ABNORMAL: the card was cancelled, the account frozen). */
    ABNORMAL,
    /** Definitely failed and this refund number is spent: a new refund number is needed. */
    CLOSED,
    /** Definitely refused without effect (bad request, insufficient balance): may send again. */
    REJECTED,
    /** Transport failure or an unexplained error page: query by the same number. */
    UNKNOWN,
    /** A query found no refund with this number: sending it again is safe. */
    NOT_FOUND
  }

  public static RefundOutcome unknown(String errorCode) {
    return new RefundOutcome(RefundState.UNKNOWN, null, null, errorCode, null, null);
  }
}
