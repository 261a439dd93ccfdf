package dev.clearway.sim.psp.stripe;

import dev.clearway.sim.psp.PspCharge;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One payment intent of the simulated account. Mutable; guarded by the {@link StripeBook} that owns
 * it.
 */
final class SimIntent {
  final String id;
  final long amount;
  final String currency;
  final String description;
  final String paymentMethod;
  final String merchantReference;
  final String attemptKey;
  final long created;
  final long createdMillis;
  final String clientSecret;
  String status;
  String declineCode;
  long refunded;

  SimIntent(String id, FormBody form, long amount, long createdMillis) {
    this.id = id;
    this.amount = amount;
    this.currency = form.get("currency");
    this.description = form.get("description");
    this.paymentMethod = form.get("payment_method");
    this.merchantReference = form.get("metadata[merchant_reference]");
    this.attemptKey = form.get("metadata[attempt_key]");
    this.createdMillis = createdMillis;
    this.created = createdMillis / 1000;
    this.clientSecret = id + "_secret_" + Long.toString(SECRETS.nextLong() & Long.MAX_VALUE, 36);
  }

  private static final java.security.SecureRandom SECRETS = new java.security.SecureRandom();

  /** The key its webhooks and faults are drawn by. */
  String faultKey() {
    return attemptKey != null ? attemptKey : id;
  }

  Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("id", id);
    json.put("object", "payment_intent");
    json.put("amount", amount);
    json.put("amount_received", "succeeded".equals(status) ? amount : 0L);
    json.put("currency", currency);
    json.put("status", status);
    json.put("description", description);
    json.put("payment_method", paymentMethod);
    json.put("created", created);
    json.put("livemode", false);
    json.put("client_secret", clientSecret);
    Map<String, Object> metadata = new LinkedHashMap<>();
    if (merchantReference != null) {
      metadata.put("merchant_reference", merchantReference);
    }
    if (attemptKey != null) {
      metadata.put("attempt_key", attemptKey);
    }
    json.put("metadata", metadata);
    if (declineCode != null) {
      Map<String, Object> error = new LinkedHashMap<>();
      error.put("type", "card_error");
      error.put("code", declineCode);
      error.put("decline_code", "generic_decline");
      json.put("last_payment_error", error);
    } else {
      json.put("last_payment_error", null);
    }
    json.put(
        "next_action",
        "requires_action".equals(status)
            ? Map.of(
                "type",
                "redirect_to_url",
                "redirect_to_url",
                Map.of("url", "https://hooks.stripe.test/3ds/" + id, "return_url", ""))
            : null);
    return json;
  }

  PspCharge toCharge(String account) {
    String ledgerStatus =
        switch (status) {
          case "succeeded" -> "CHARGED";
          case "requires_payment_method" -> "FAILED";
          case "canceled" -> "CLOSED";
          default -> "PENDING";
        };
    return new PspCharge(
        account, attemptKey, merchantReference, id, amount, ledgerStatus, refunded);
  }
}
