package dev.clearway.app.api;

import io.swagger.v3.oas.annotations.Operation;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** HTTP face of {@link PaymentApi}. */
@RestController
@RequestMapping(path = "/v1", produces = MediaType.APPLICATION_JSON_VALUE)
public class PaymentController {
  private final PaymentApi api;

  public PaymentController(PaymentApi api) {
    this.api = api;
  }

  @Operation(
      summary = "Create a payment (idempotent by Idempotency-Key)",
      description =
          "Advances the payment synchronously up to a short deadline and returns the flow; a"
              + " status of PROCESSING means poll GET /v1/payment-flows/{flowId} after"
              + " pollAfterMs.")
  @PostMapping(path = "/payments", consumes = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<FlowView> create(
      @RequestHeader(name = "Idempotency-Key", required = false) String idempotencyKey,
      @RequestBody(required = false) CreatePaymentRequest body,
      HttpServletRequest request) {
    ApiKeys.Principal merchant = (ApiKeys.Principal) request.getAttribute(ApiKeyFilter.PRINCIPAL);
    PaymentApi.Answer answer = api.create(merchant.id(), idempotencyKey, body);
    ResponseEntity.BodyBuilder response =
        ResponseEntity.status(answer.created() ? HttpStatus.CREATED : HttpStatus.OK);
    if (answer.replayed()) {
      response.header("Idempotent-Replayed", "true");
    }
    return response.body(answer.flow());
  }

  @Operation(
      summary = "Cancel a payment",
      description =
          "Closes the flow if no payment call was made; while the charge is unknown the cancel is"
              + " recorded and a charge that lands is refunded, never fulfilled; 409"
              + " cancel_not_possible once the charge is confirmed.")
  @PostMapping("/payment-flows/{flowId}/cancel")
  public FlowView cancel(@PathVariable("flowId") long flowId) {
    return api.cancel(flowId);
  }

  @Operation(summary = "Read one payment flow (poll until its status is final)")
  @GetMapping("/payment-flows/{flowId}")
  public FlowView get(@PathVariable("flowId") long flowId) {
    return api.get(flowId);
  }

  @Operation(summary = "All attempts of a business goal")
  @GetMapping("/payment-flows")
  public List<FlowView> byBizKey(
      @RequestParam(name = "bizKey", required = false) String bizKey,
      @RequestParam(name = "userId", required = false) Long userId,
      @RequestParam(name = "scene", required = false) String scene) {
    return api.byBizKey(bizKey, userId, scene);
  }
}
