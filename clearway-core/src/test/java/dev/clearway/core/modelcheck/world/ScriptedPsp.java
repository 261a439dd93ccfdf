package dev.clearway.core.modelcheck.world;

import dev.clearway.core.channel.spi.AttemptRef;
import dev.clearway.core.channel.spi.CreatePayment;
import dev.clearway.core.channel.spi.PspAdapter;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.RecoveryCapabilities;
import dev.clearway.core.channel.spi.RefundCall;
import dev.clearway.core.channel.spi.RefundOutcome;
import dev.clearway.core.channel.spi.ResultCertainty;
import dev.clearway.core.channel.spi.WebhookNotice;
import dev.clearway.core.modelcheck.Pending;
import dev.clearway.core.modelcheck.Scripted;
import dev.clearway.core.modelcheck.world.PspLedger.State;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * A PSP account, idempotent by the attempt's key, truthful when it answers, with authoritative
 * webhooks; every answer is chosen by the explorer: charged, charged with the response lost,
 * declined, waiting for the customer, lost before the PSP, refused before sending, unknown.
 */
public final class ScriptedPsp implements PspAdapter, Scripted {
  static final String CHARGED = "charged";
  static final String CHARGED_LOST = "charged, response lost";
  static final String DECLINED = "declined";
  static final String AWAITS_CUSTOMER = "awaits the customer";
  static final String LOST_BEFORE = "lost before the PSP";
  static final String REFUSED_BEFORE = "refused before sending";
  static final String TRUTH = "answers";
  static final String LOST = "response lost";

  public static final RecoveryCapabilities CAPABILITIES =
      new RecoveryCapabilities(true, true, false, true, false);

  private PspLedger ledger;
  private final long amount;
  private String outcome;

  public ScriptedPsp(PspLedger ledger, long amount) {
    this.ledger = ledger;
    this.amount = amount;
  }

  public PspLedger ledger() {
    return ledger;
  }

  @Override
  public void choose(String chosen) {
    outcome = chosen;
  }

  @Override
  public List<String> outcomes(Pending call) {
    return switch (call.method()) {
      case "create" ->
          ledger.state() == State.NONE
              ? List.of(
                  CHARGED, CHARGED_LOST, DECLINED, AWAITS_CUSTOMER, LOST_BEFORE, REFUSED_BEFORE)
              : List.of(TRUTH, LOST);
      case "retrieve" -> List.of(TRUTH, LOST);
      default -> List.of("ok");
    };
  }

  @Override
  public String channel() {
    return "psp";
  }

  @Override
  public RecoveryCapabilities capabilities() {
    return CAPABILITIES;
  }

  @Override
  public PspOutcome create(CreatePayment request) {
    return switch (outcome) {
      case CHARGED -> move(State.SUCCEEDED, truth(State.SUCCEEDED));
      case CHARGED_LOST -> move(State.SUCCEEDED, PspOutcome.unknown("TIMEOUT"));
      case DECLINED -> move(State.FAILED, truth(State.FAILED));
      case AWAITS_CUSTOMER -> move(State.PENDING, truth(State.PENDING));
      case REFUSED_BEFORE -> PspOutcome.noSideEffect("INVALID_REQUEST");
      case TRUTH -> truth(ledger.state());
      default -> PspOutcome.unknown("TIMEOUT");
    };
  }

  private PspOutcome move(State next, PspOutcome answer) {
    ledger = ledger.to(next);
    return answer;
  }

  /** The PSP's answer about the key in state {@code s}: not found, pending, charged, failed. */
  public PspOutcome truth(State s) {
    return switch (s) {
      case NONE -> PspOutcome.noSideEffect("NOT_FOUND");
      case PENDING ->
          new PspOutcome(
              ResultCertainty.PENDING, "requires_action", "pi_1", null, false, true, "req", null);
      case SUCCEEDED ->
          new PspOutcome(
              ResultCertainty.CONFIRMED_SUCCESS,
              "succeeded",
              "pi_1",
              null,
              false,
              false,
              "req",
              null,
              amount);
      case FAILED ->
          new PspOutcome(
              ResultCertainty.DEFINITE_FAILURE,
              "failed",
              "pi_1",
              "card_declined",
              false,
              false,
              "req",
              null);
    };
  }

  @Override
  public PspOutcome retrieve(AttemptRef attempt) {
    return TRUTH.equals(outcome) ? truth(ledger.state()) : PspOutcome.unknown("TIMEOUT");
  }

  /** The customer finishes a payment that waited for them: paid or abandoned. */
  public void customerFinishes(boolean paid) {
    ledger = ledger.to(paid ? State.SUCCEEDED : State.FAILED);
  }

  /** The body of a webhook names the state it reports; parsing reads it back. */
  @Override
  public WebhookNotice parseWebhook(Map<String, String> headers, byte[] rawBody) {
    String[] parts = new String(rawBody, StandardCharsets.UTF_8).split(" ");
    State reported = State.valueOf(parts[1]);
    return new WebhookNotice(
        parts[0], WebhookNotice.Kind.PAYMENT, parts[2], "pi_1", null, truth(reported), null, null);
  }

  @Override
  public PspOutcome close(AttemptRef attempt) {
    throw new UnsupportedOperationException("close");
  }

  @Override
  public RefundOutcome refund(RefundCall refund) {
    throw new UnsupportedOperationException("refund");
  }

  @Override
  public RefundOutcome queryRefund(RefundCall refund) {
    throw new UnsupportedOperationException("queryRefund");
  }
}
