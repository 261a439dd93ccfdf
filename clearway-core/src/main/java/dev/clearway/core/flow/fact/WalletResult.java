package dev.clearway.core.flow.fact;

/**
 * One wallet answer (charge, refund, their queries, or close). {@code retryable} only matters for a
 * definite refund failure: the same refund number may be sent again.
 */
public record WalletResult(
    Certainty certainty, String errorCode, String requestId, boolean retryable) {

  public static WalletResult success(String requestId) {
    return new WalletResult(Certainty.SUCCESS, null, requestId, false);
  }

  public static WalletResult failed(String errorCode, String requestId, boolean retryable) {
    return new WalletResult(Certainty.DEFINITE_FAILURE, errorCode, requestId, retryable);
  }

  public static WalletResult processing(String requestId) {
    return new WalletResult(Certainty.PROCESSING, null, requestId, false);
  }

  public static WalletResult unknown(String errorCode) {
    return new WalletResult(Certainty.UNKNOWN, errorCode, null, false);
  }

  public static WalletResult noRecord(String requestId) {
    return new WalletResult(Certainty.NO_RECORD, null, requestId, false);
  }
}
