package dev.clearway.service.api;

import dev.clearway.boot.EngineAssembly;
import dev.clearway.core.channel.engine.ChannelGateway;
import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.flow.port.FlowStore;
import io.swagger.v3.oas.annotations.Operation;
import jakarta.servlet.http.HttpServletRequest;
import java.util.regex.Pattern;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /v1/payment-flows/{flowId}/payment-method}: a business retry. While the flow is still
 * paying, the customer changes the payment method (e.g. another card after a 3-D Secure challenge);
 * the waiting attempt is closed at its PSP and a new attempt with a new key is made. Refused while
 * the previous attempt's result is unknown. Only with the channel layer.
 */
@RestController
public class PaymentMethodController {

  private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9_]{1,64}");

  /** The new method: an opaque PSP token such as {@code pm_card_visa}, never card data. */
  public record ChangeMethod(String paymentMethod) {}

  private final ObjectProvider<ChannelGateway> channels;
  private final FlowStore flows;
  private final EngineAssembly engine;

  public PaymentMethodController(
      ObjectProvider<ChannelGateway> channels, FlowStore flows, EngineAssembly engine) {
    this.channels = channels;
    this.flows = flows;
    this.engine = engine;
  }

  @Operation(summary = "Change the payment method of a flow that is still paying (new attempt)")
  @Refusal(status = 404, code = "channels_disabled", message = "no channel layer")
  @Refusal(status = 404, code = "flow_not_found", message = "no such payment flow")
  @Refusal(status = 409, code = "flow_not_paying", message = "the flow is not paying")
  @Refusal(
      status = 409,
      code = "previous_attempt_not_final",
      message = "the previous attempt's result is not known yet; retry later")
  @Refusal(
      status = 422,
      code = "invalid_payment_method",
      message = "paymentMethod must be 1 to 64 letters, digits or underscores")
  @PostMapping(
      path = "/v1/payment-flows/{flowId}/payment-method",
      consumes = MediaType.APPLICATION_JSON_VALUE,
      produces = MediaType.APPLICATION_JSON_VALUE)
  public FlowView change(
      @PathVariable("flowId") long flowId,
      @RequestBody(required = false) ChangeMethod body,
      HttpServletRequest request) {
    ChannelGateway gateway = channels.getIfAvailable();
    if (gateway == null) {
      throw new ApiException(HttpStatus.NOT_FOUND, "channels_disabled", "no channel layer");
    }
    if (body == null
        || body.paymentMethod() == null
        || !TOKEN.matcher(body.paymentMethod()).matches()) {
      throw new ApiException(
          HttpStatus.UNPROCESSABLE_ENTITY,
          "invalid_payment_method",
          "paymentMethod must be 1 to 64 letters, digits or underscores");
    }
    String merchant = PaymentController.merchant(request);
    PayFlow flow =
        flows
            .find(flowId)
            .filter(f -> f.goal().merchant().equals(merchant))
            .orElseThrow(
                () ->
                    new ApiException(
                        HttpStatus.NOT_FOUND, "flow_not_found", "no such payment flow"));
    if (flow.status() != FlowStatus.PAYING) {
      throw new ApiException(HttpStatus.CONFLICT, "flow_not_paying", "the flow is not paying");
    }
    WalletResult result = gateway.retryWithMethod(flow.tradeOrderNo(), body.paymentMethod());
    if (ChannelGateway.PREVIOUS_NOT_FINAL.equals(result.errorCode())) {
      throw new ApiException(
          HttpStatus.CONFLICT,
          "previous_attempt_not_final",
          "the previous attempt's result is not known yet; retry later");
    }
    engine.runtime().wake(flowId, TriggerSource.WAKEUP);
    return FlowView.of(flows.find(flowId).orElseThrow());
  }
}
