package dev.clearway.boot.channel;

import dev.clearway.core.channel.domain.MethodChoice;
import dev.clearway.core.channel.engine.PaymentMethods;
import dev.clearway.core.channel.port.PaymentDetailsStore;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import java.util.Optional;

/**
 * The payment method of a charge as its merchant's request chose it for the flow's goal ({@code
 * payment_method_choice}), routed by that merchant's channel configurations; a goal with no choice
 * pays by the application's default method, as before.
 */
public final class ChosenMethods implements PaymentMethods {

  private final FlowStore flows;
  private final PaymentDetailsStore details;
  private final PaymentMethods fallback;

  public ChosenMethods(FlowStore flows, PaymentDetailsStore details, PaymentMethods fallback) {
    this.flows = flows;
    this.details = details;
    this.fallback = fallback;
  }

  @Override
  public Choice choose(ChargeRequest request) {
    Optional<PayFlow> flow = flows.findByOrderNo(request.tradeOrderNo());
    if (flow.isEmpty()) {
      return fallback.choose(request);
    }
    Optional<MethodChoice> chosen = details.choice(flow.get().goal());
    if (chosen.isEmpty()) {
      return fallback.choose(request);
    }
    MethodChoice c = chosen.get();
    return new Choice(c.method(), c.tokenOrMethod(), flow.get().goal().merchant(), c.payer());
  }
}
