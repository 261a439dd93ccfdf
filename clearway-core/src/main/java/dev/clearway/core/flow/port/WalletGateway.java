package dev.clearway.core.flow.port;

import dev.clearway.core.flow.fact.WalletResult;
import java.time.Instant;

/**
 * The wallet, idempotent by trade order number and refund order number. Implementations never throw
 * for transport problems: they answer {@code UNKNOWN}.
 */
public interface WalletGateway {

  WalletResult pay(ChargeRequest request);

  WalletResult queryPayment(String tradeOrderNo);

  /**
   * Closes an order that must never be charged: SUCCESS if it is now closed or was never created; a
   * later pay with the same number is rejected. If the order was already charged, the answer is
   * {@code DEFINITE_FAILURE} with error code {@code ALREADY_PAID}.
   */
  WalletResult closePayment(String tradeOrderNo);

  WalletResult refund(RefundRequest request);

  WalletResult queryRefund(String refundOrderNo);

  /**
   * {@link #closePayment(String)} by a worker whose lease ends at {@code leaseUntil}: an
   * implementation that paces its calls answers {@code UNKNOWN} without calling rather than wait
   * past the lease, and the worker reschedules. The default ignores the lease.
   */
  default WalletResult closePayment(String tradeOrderNo, Instant leaseUntil) {
    return closePayment(tradeOrderNo);
  }

  /**
   * {@link #refund(RefundRequest)} by a worker whose lease ends at {@code leaseUntil}; as above.
   */
  default WalletResult refund(RefundRequest request, Instant leaseUntil) {
    return refund(request);
  }

  /** {@link #queryRefund(String)} by a worker whose lease ends at {@code leaseUntil}; as above. */
  default WalletResult queryRefund(String refundOrderNo, Instant leaseUntil) {
    return queryRefund(refundOrderNo);
  }

  record ChargeRequest(String tradeOrderNo, long userId, long amount, String currency) {}

  record RefundRequest(String refundOrderNo, String tradeOrderNo, long amount, String currency) {}
}
