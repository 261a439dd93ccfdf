package dev.clearway.psp.stripe;

import dev.clearway.core.channel.spi.AttemptRef;
import dev.clearway.core.channel.spi.CreatePayment;
import dev.clearway.core.channel.spi.PspAdapter;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.RecoveryCapabilities;
import dev.clearway.core.channel.spi.RefundCall;
import dev.clearway.core.channel.spi.RefundOutcome;
import dev.clearway.core.channel.spi.WebhookNotice;
import dev.clearway.core.channel.spi.WebhookRejected;
import dev.clearway.core.statement.Statement;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link PspAdapter} of one Stripe account ({@code stripe}). Creates confirmed payment intents with
 * the attempt's key as {@code Idempotency-Key} and as {@code metadata[attempt_key]}, so a replay
 * gets Stripe's stored answer and a lost attempt can be found by search. Never throws for transport
 * problems or Stripe errors (see {@link StripePaymentMapping} for the certainties); never logs.
 *
 * <p>Webhooks are not authoritative (Stripe's advice is to fetch the object): a notice is a hint to
 * retrieve. Search is eventually consistent: an empty search is UNKNOWN, never proof of absence.
 */
public final class StripeAdapter implements PspAdapter {
  private static final String INTENTS = "/v1/payment_intents";
  private static final String REFUNDS = "/v1/refunds";
  private static final RecoveryCapabilities CAPABILITIES =
      new RecoveryCapabilities(true, true, true, false, true);

  private final StripeHttp http;
  private final StripeWebhookParser webhooks;
  private final StripeStatements statements;

  public StripeAdapter(StripeConfig config) {
    Objects.requireNonNull(config, "config");
    JsonMapper json = JsonMapper.builder().build();
    this.http = new StripeHttp(config, json);
    this.webhooks = new StripeWebhookParser(config, json);
    this.statements = new StripeStatements(http, config.reportWait());
  }

  @Override
  public String channel() {
    return "stripe";
  }

  @Override
  public RecoveryCapabilities capabilities() {
    return CAPABILITIES;
  }

  @Override
  public PspOutcome create(CreatePayment request) {
    Map<String, String> form = new LinkedHashMap<>();
    form.put("amount", Long.toString(request.amount()));
    form.put("currency", request.currency().toLowerCase(Locale.ROOT));
    form.put("confirm", "true");
    form.put("payment_method", request.paymentMethod());
    form.put("description", request.description());
    form.put("metadata[merchant_reference]", request.merchantReference());
    form.put("metadata[attempt_key]", request.idempotencyKey());
    return StripePaymentMapping.create(http.post(INTENTS, form, request.idempotencyKey()));
  }

  @Override
  public PspOutcome retrieve(AttemptRef attempt) {
    if (attempt.providerPaymentId() != null) {
      return StripePaymentMapping.retrieved(
          http.get(INTENTS + "/" + attempt.providerPaymentId(), Map.of()));
    }
    return search(attempt);
  }

  @Override
  public PspOutcome close(AttemptRef attempt) {
    String id = attempt.providerPaymentId();
    if (id == null) {
      PspOutcome found = search(attempt);
      if (found.providerPaymentId() == null) {
        return found;
      }
      id = found.providerPaymentId();
    }
    return StripePaymentMapping.closed(http.post(INTENTS + "/" + id + "/cancel", Map.of(), null));
  }

  @Override
  public RefundOutcome refund(RefundCall refund) {
    String paymentIntent = refund.attempt().providerPaymentId();
    if (paymentIntent == null) {
      PspOutcome found = search(refund.attempt());
      if (found.providerPaymentId() == null) {
        return RefundOutcome.unknown(found.errorCode());
      }
      paymentIntent = found.providerPaymentId();
    }
    Map<String, String> form = new LinkedHashMap<>();
    form.put("payment_intent", paymentIntent);
    form.put("amount", Long.toString(refund.amount()));
    form.put("metadata[refund_no]", refund.refundNo());
    return StripeRefundMapping.reply(http.post(REFUNDS, form, refund.refundNo()));
  }

  /**
   * Replays the refund with the same number (Stripe answers with the stored result, or executes it
   * if Stripe never received it), then reads the refund's current state, since a stored answer does
   * not change when a pending refund settles.
   */
  @Override
  public RefundOutcome queryRefund(RefundCall refund) {
    RefundOutcome replayed = refund(refund);
    if (replayed.providerRefundId() == null
        || replayed.state() == RefundOutcome.RefundState.UNKNOWN) {
      return replayed;
    }
    StripeReply current = http.get(REFUNDS + "/" + replayed.providerRefundId(), Map.of());
    if (current.answered() && current.status() == 200 && current.json() != null) {
      return StripeRefundMapping.refund(current.json(), current.requestId(), current.rawHash());
    }
    return RefundOutcome.unknown(
        current.answered() ? "http_" + current.status() : current.transportError());
  }

  @Override
  public WebhookNotice parseWebhook(Map<String, String> headers, byte[] rawBody)
      throws WebhookRejected {
    return webhooks.parse(headers, rawBody);
  }

  @Override
  public boolean settlementReportAvailable() {
    return true;
  }

  /**
   * The account's balance transactions of the UTC day {@code day}, through a report run (see {@link
   * StripeStatements}); Stripe announces no hash for the file.
   */
  @Override
  public Statement downloadStatement(String accountRef, LocalDate day) {
    return statements.download(day);
  }

  /**
   * Finds the attempt by {@code metadata['attempt_key']} (or, without a key, by the merchant
   * reference when exactly one intent carries it). A succeeded intent wins over others.
   */
  private PspOutcome search(AttemptRef attempt) {
    boolean byKey = attempt.idempotencyKey() != null;
    String value = byKey ? attempt.idempotencyKey() : attempt.merchantReference();
    if (value == null) {
      return PspOutcome.unknown(StripePaymentMapping.NOT_FOUND_IN_SEARCH);
    }
    String field = byKey ? "attempt_key" : "merchant_reference";
    String query = "metadata['" + field + "']:'" + value.replace("'", "\\'") + "'";
    StripeReply reply = http.get(INTENTS + "/search", Map.of("query", query));
    if (!reply.answered() || reply.status() != 200 || reply.json() == null) {
      return reply.answered()
          ? StripePaymentMapping.unexplained(reply)
          : PspOutcome.unknown(reply.transportError());
    }
    JsonNode data = reply.json().path("data");
    if (!data.isArray() || data.isEmpty() || (!byKey && data.size() > 1)) {
      String code =
          data.isArray() && data.size() > 1
              ? "ambiguous_search"
              : StripePaymentMapping.NOT_FOUND_IN_SEARCH;
      return PspOutcome.unknown(code).withRequest(reply.requestId(), null);
    }
    JsonNode chosen = data.get(0);
    for (JsonNode intent : data) {
      if ("succeeded".equals(StripeFields.text(intent, "status"))) {
        chosen = intent;
        break;
      }
    }
    return StripePaymentMapping.intent(chosen, reply.requestId(), reply.rawHash());
  }
}
