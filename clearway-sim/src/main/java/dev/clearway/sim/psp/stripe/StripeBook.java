package dev.clearway.sim.psp.stripe;

import dev.clearway.sim.psp.PspCharge;
import dev.clearway.sim.psp.PspInjections;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The payment intents and refunds of one simulated Stripe account, with the behaviour of Stripe's
 * test payment methods. Every state change that Stripe announces is published as a webhook. All
 * methods are atomic (one lock per account); none sleeps.
 *
 * <p>Test payment methods: {@code pm_card_visa} succeeds; {@code pm_card_chargeDeclined} is
 * declined (402 {@code card_error}); {@code pm_card_threeDSecureRequired} waits for the customer
 * ({@code requires_action}); {@code pm_card_async} is {@code processing}, then succeeds after the
 * async delay; {@code pm_card_refundPending} and {@code pm_card_refundFail} succeed, and their
 * refunds are {@code pending}, then {@code succeeded} or {@code failed} after the async delay.
 */
final class StripeBook {
  static final Set<String> PAYMENT_METHODS =
      Set.of(
          "pm_card_visa",
          "pm_card_chargeDeclined",
          "pm_card_threeDSecureRequired",
          "pm_card_async",
          "pm_card_refundPending",
          "pm_card_refundFail");
  private static final Set<String> CANCELABLE =
      Set.of("requires_payment_method", "requires_action", "requires_confirmation");

  private final String account;
  private final String idTag;
  private final Clock clock;
  private final StripeWebhooks webhooks;
  private final ScheduledExecutorService settler;
  private final Duration asyncDelay;
  private final Duration searchLag;
  private final AtomicLong ids = new AtomicLong();
  private final Map<String, SimIntent> intents = new LinkedHashMap<>();
  private final Map<String, SimRefund> refunds = new LinkedHashMap<>();
  private final List<StripeBalanceReport.Adjustment> adjustments = new ArrayList<>();
  private final PspInjections injections = new PspInjections();

  StripeBook(StripeSimOptions options, StripeWebhooks webhooks, ScheduledExecutorService settler) {
    this.account = options.account();
    this.idTag = Integer.toHexString(options.account().hashCode() & 0xfffff);
    this.clock = options.clock();
    this.webhooks = webhooks;
    this.settler = settler;
    this.asyncDelay = options.timing().asyncDelay();
    this.searchLag = options.timing().searchLag();
  }

  /** The refusal of an invalid create, or null when the parameters are acceptable. */
  static SimResponse validateCreate(FormBody form) {
    Long amount = positive(form.get("amount"));
    String currency = form.get("currency");
    if (amount == null) {
      return invalid("parameter_invalid_integer");
    }
    if (currency == null || !currency.matches("[a-z]{3}")) {
      return invalid("parameter_invalid_string");
    }
    if (!"true".equals(form.get("confirm"))) {
      return invalid("parameter_missing");
    }
    if (!PAYMENT_METHODS.contains(form.get("payment_method"))) {
      return invalid("resource_missing");
    }
    return null;
  }

  /** Executes a validated create: the payment intent exists from now on. */
  synchronized SimResponse create(FormBody form) {
    SimIntent intent =
        new SimIntent(newId("pi_"), form, Long.parseLong(form.get("amount")), clock.millis());
    intents.put(intent.id, intent);
    switch (intent.paymentMethod) {
      case "pm_card_chargeDeclined" -> {
        intent.status = "requires_payment_method";
        intent.declineCode = "card_declined";
        webhooks.publish("payment_intent.payment_failed", intent.toJson(), intent.faultKey());
        return SimResponse.failed(402, "card_error", "card_declined", intent.toJson());
      }
      case "pm_card_threeDSecureRequired" -> intent.status = "requires_action";
      case "pm_card_async" -> {
        intent.status = "processing";
        later(() -> settleAsync(intent));
      }
      default -> {
        intent.status = "succeeded";
        if (injections.feeDeltaOf(intent.merchantReference) != 0) {
          injections.record("FEE_MISMATCH", intent.merchantReference);
        }
        webhooks.publish("payment_intent.succeeded", intent.toJson(), intent.faultKey());
      }
    }
    return SimResponse.ok(intent.toJson());
  }

  synchronized SimResponse retrieve(String id) {
    SimIntent intent = intents.get(id);
    return intent == null ? notFound() : SimResponse.ok(intent.toJson());
  }

  /** Search by one metadata field; intents younger than the search lag are not indexed yet. */
  synchronized SimResponse search(String field, String value) {
    long indexedBefore = clock.millis() - searchLag.toMillis();
    List<Object> data = new ArrayList<>();
    intents.values().stream()
        .filter(i -> i.createdMillis <= indexedBefore)
        .filter(i -> value.equals("attempt_key".equals(field) ? i.attemptKey : i.merchantReference))
        .sorted(Comparator.comparingLong((SimIntent i) -> i.createdMillis).reversed())
        .forEach(i -> data.add(i.toJson()));
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("object", "search_result");
    body.put("data", data);
    body.put("has_more", false);
    return SimResponse.ok(body);
  }

  synchronized SimResponse cancel(String id) {
    SimIntent intent = intents.get(id);
    if (intent == null) {
      return notFound();
    }
    if (!CANCELABLE.contains(intent.status)) {
      return SimResponse.failed(
          400, "invalid_request_error", "payment_intent_unexpected_state", intent.toJson());
    }
    intent.status = "canceled";
    webhooks.publish("payment_intent.canceled", intent.toJson(), intent.faultKey());
    return SimResponse.ok(intent.toJson());
  }

  /** Executes a refund; the caller has checked the idempotency key. */
  synchronized SimResponse refund(FormBody form, String refundNo) {
    SimIntent intent = intents.get(form.get("payment_intent"));
    if (intent == null) {
      return invalid("resource_missing");
    }
    if (!"succeeded".equals(intent.status)) {
      return invalid("payment_intent_unexpected_state");
    }
    long remaining = intent.amount - intent.refunded;
    if (remaining <= 0) {
      return invalid("charge_already_refunded");
    }
    Long amount = form.get("amount") == null ? (Long) remaining : positive(form.get("amount"));
    if (amount == null) {
      return invalid("parameter_invalid_integer");
    }
    if (amount > remaining) {
      return invalid("amount_too_large");
    }
    SimRefund refund =
        new SimRefund(
            intent,
            newId("re_"),
            amount,
            refundNo,
            form.get("metadata[refund_no]"),
            clock.millis() / 1000);
    refunds.put(refund.id, refund);
    intent.refunded += amount;
    boolean async =
        "pm_card_refundPending".equals(intent.paymentMethod)
            || "pm_card_refundFail".equals(intent.paymentMethod);
    refund.status = async ? "pending" : "succeeded";
    webhooks.publish("refund.created", refund.toJson(), refund.faultKey());
    if (async) {
      later(() -> settleRefund(refund, intent));
    }
    return SimResponse.ok(refund.toJson());
  }

  synchronized SimResponse retrieveRefund(String id) {
    SimRefund refund = refunds.get(id);
    return refund == null ? notFound() : SimResponse.ok(refund.toJson());
  }

  /** The balance report of the UTC day starting at {@code from} (unix seconds). */
  synchronized byte[] balanceReport(long from) {
    return balanceReport(from, from + 86_400);
  }

  /**
   * The balance report of {@code [from, to)} in unix seconds; when a corruption was injected, the
   * first transaction's net no longer equals its amount less its fee.
   */
  synchronized byte[] balanceReport(long from, long to) {
    byte[] report =
        StripeBalanceReport.render(
            intents.values(),
            refunds.values(),
            intents,
            adjustments,
            injections::feeDeltaOf,
            injections::unnamed,
            from,
            to);
    return injections.takeCorruption() ? StripeBalanceReport.corrupt(report) : report;
  }

  /** Each refund's status by the number it was created with (its idempotency key). */
  synchronized Map<String, String> refundStatuses() {
    Map<String, String> out = new LinkedHashMap<>();
    refunds.values().stream()
        .filter(r -> r.refundNo != null)
        .forEach(r -> out.put(r.refundNo, r.status));
    return out;
  }

  PspInjections injections() {
    return injections;
  }

  /**
   * Reverses the succeeded charge of {@code merchantReference} at {@code at} (unix seconds), after
   * its settlement: an adjustment of the full amount. Returns false when there is no such charge.
   */
  synchronized boolean reverse(String merchantReference, long at) {
    for (SimIntent i : intents.values()) {
      if ("succeeded".equals(i.status) && merchantReference.equals(i.merchantReference)) {
        adjustments.add(
            new StripeBalanceReport.Adjustment(
                "txn_adj" + idTag + "x" + Long.toString(ids.incrementAndGet(), 36),
                -i.amount,
                i.currency,
                at,
                i.attemptKey));
        injections.record("ADJUSTMENT_TO_REVIEW", merchantReference);
        return true;
      }
    }
    return false;
  }

  synchronized List<PspCharge> ledger() {
    List<PspCharge> out = new ArrayList<>(intents.size());
    intents.values().forEach(i -> out.add(i.toCharge(account)));
    return out;
  }

  private synchronized void settleAsync(SimIntent intent) {
    if ("processing".equals(intent.status)) {
      intent.status = "succeeded";
      webhooks.publish("payment_intent.succeeded", intent.toJson(), intent.faultKey());
    }
  }

  private synchronized void settleRefund(SimRefund refund, SimIntent intent) {
    if (!"pending".equals(refund.status)) {
      return;
    }
    if ("pm_card_refundFail".equals(intent.paymentMethod)) {
      refund.status = "failed";
      intent.refunded -= refund.amount;
    } else {
      refund.status = "succeeded";
    }
    webhooks.publish("refund.updated", refund.toJson(), refund.faultKey());
  }

  private void later(Runnable task) {
    try {
      settler.schedule(task, asyncDelay.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException closing) {
      // The account is closing: what was pending stays pending.
    }
  }

  private String newId(String prefix) {
    return prefix + idTag + "x" + Long.toString(ids.incrementAndGet(), 36);
  }

  private static Long positive(String s) {
    if (s == null || !s.matches("[0-9]{1,15}")) {
      return null;
    }
    long n = Long.parseLong(s);
    return n > 0 ? n : null;
  }

  private static SimResponse invalid(String code) {
    return SimResponse.refused(400, "invalid_request_error", code);
  }

  static SimResponse notFound() {
    return SimResponse.refused(404, "invalid_request_error", "resource_missing");
  }
}
