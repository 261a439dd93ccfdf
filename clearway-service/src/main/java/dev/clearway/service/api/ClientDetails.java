package dev.clearway.service.api;

import dev.clearway.core.channel.decision.MethodAdmission;
import dev.clearway.core.channel.domain.MethodChoice;
import dev.clearway.core.channel.engine.ChannelGateway;
import dev.clearway.core.channel.engine.PaymentDetails;
import dev.clearway.core.channel.port.PaymentDetailsStore;
import dev.clearway.core.flow.domain.ClientStatus;
import dev.clearway.core.flow.domain.PayFlow;
import java.time.Clock;
import java.util.function.Supplier;
import org.springframework.http.HttpStatus;

/**
 * The payment method of a create and the details the customer's client is answered with. At create
 * time, before anything is written: the method must be enabled for the merchant on an account of
 * the channel layer that carries it, and the amount within that configuration's limits (without a
 * channel layer only {@code wallet} is). The choice is then recorded for the goal, and the channel
 * layer pays by it. A flow whose payment waits for the customer is REQUIRES_ACTION with its next
 * action (a QR code, signed JSAPI parameters, a client secret).
 */
public final class ClientDetails {

  private final Supplier<ChannelGateway> channels;
  private final PaymentDetailsStore store;
  private final Clock clock;

  public ClientDetails(Supplier<ChannelGateway> channels, PaymentDetailsStore store, Clock clock) {
    this.channels = channels;
    this.store = store;
    this.clock = clock;
  }

  /**
   * Refuses (422, nothing written) a method not enabled for the merchant, or an amount outside the
   * limits of every account that carries it.
   */
  public void admit(String merchant, PaymentRequestValidator.Valid valid) {
    MethodChoice method = valid.method();
    if (method == null) {
      return;
    }
    ChannelGateway gateway = channels.get();
    if (gateway == null) {
      if (!method.method().equals("wallet")) {
        throw notEnabled(method.method());
      }
      return;
    }
    MethodAdmission.Result result =
        gateway.details().admit(merchant, method.method(), valid.payment().amount());
    if (result.admitted()) {
      return;
    }
    throw switch (result.refusal()) {
      case METHOD_NOT_ENABLED -> notEnabled(method.method());
      case AMOUNT_OUT_OF_LIMITS ->
          new ApiException(
              HttpStatus.UNPROCESSABLE_CONTENT,
              "amount_out_of_limits",
              "amount is outside the limits of the channels that carry " + method.method());
    };
  }

  /** Records the request's method for its goal, where a channel layer pays by it. */
  public void record(PaymentRequestValidator.Valid valid) {
    if (valid.method() != null && channels.get() != null) {
      store.saveChoice(valid.payment().goal(), valid.method(), clock.instant());
    }
  }

  /** The flow as its client sees it, with the next action while it waits for the customer. */
  public FlowView view(PayFlow flow) {
    ChannelGateway gateway = channels.get();
    if (gateway == null || ClientStatus.of(flow) != ClientStatus.PROCESSING) {
      return FlowView.of(flow);
    }
    PaymentDetails details = gateway.details();
    boolean awaits = details.awaitsCustomer(flow.tradeOrderNo());
    return FlowView.of(
        flow, awaits, awaits ? details.clientAction(flow.tradeOrderNo()).orElse(null) : null);
  }

  private static ApiException notEnabled(String method) {
    return new ApiException(
        HttpStatus.UNPROCESSABLE_CONTENT,
        "payment_method_not_enabled",
        "payment method " + method + " is not enabled for this merchant");
  }
}
