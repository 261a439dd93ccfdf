package dev.clearway.core.channel.port;

import dev.clearway.core.channel.domain.PaymentOrder;
import java.time.Instant;
import java.util.Optional;

/** Payment orders: the trade order number the flow pays, paid through attempts. */
public interface PaymentOrderStore {

  /** Inserts the order unless it exists; returns the stored one (amounts are never overwritten). */
  PaymentOrder openOrder(PaymentOrder order, Instant now);

  Optional<PaymentOrder> order(String tradeOrderNo);

  /**
   * Closes an order whose attempts are all final and unpaid. False when an attempt is live or
   * succeeded: the caller must deal with that first.
   */
  boolean closeOrder(String tradeOrderNo, String reason, Instant now);
}
