package dev.clearway.sim.psp.stripe;

import java.util.LinkedHashMap;
import java.util.Map;

/** One refund of the simulated account. Mutable; guarded by the {@link StripeBook} that owns it. */
final class SimRefund {
  final String id;
  final String paymentIntent;
  final long amount;
  final String currency;

  /** The idempotency key it was created with. */
  final String refundNo;

  /** Its metadata's {@code refund_no}, as the creating request set it (null when none). */
  final String metadataRefundNo;

  final long created;
  String status;

  SimRefund(
      SimIntent intent,
      String id,
      long amount,
      String refundNo,
      String metadataRefundNo,
      long created) {
    this.id = id;
    this.paymentIntent = intent.id;
    this.amount = amount;
    this.currency = intent.currency;
    this.refundNo = refundNo;
    this.metadataRefundNo = metadataRefundNo;
    this.created = created;
  }

  String faultKey() {
    return refundNo != null ? refundNo : id;
  }

  Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("id", id);
    json.put("object", "refund");
    json.put("amount", amount);
    json.put("currency", currency);
    json.put("payment_intent", paymentIntent);
    json.put("status", status);
    json.put("created", created);
    json.put("failure_reason", "failed".equals(status) ? "expired_or_canceled_card" : null);
    Map<String, Object> metadata = new LinkedHashMap<>();
    if (metadataRefundNo != null) {
      metadata.put("refund_no", metadataRefundNo);
    }
    json.put("metadata", metadata);
    return json;
  }
}
