package dev.clearway.service.api;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
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
@Tag(name = "payments", description = "Payments of the calling merchant")
@RequestMapping(path = "/v1", produces = MediaType.APPLICATION_JSON_VALUE)
public class PaymentController {
  private final PaymentApi api;

  public PaymentController(PaymentApi api) {
    this.api = api;
  }

  @Operation(
      operationId = "createPayment",
      summary = "Create a payment (idempotent by Idempotency-Key)",
      description =
          "Advances the payment synchronously up to a short deadline and returns the flow; a"
              + " status of PROCESSING means poll GET /v1/payment-flows/{flowId} after"
              + " pollAfterMs. 503 overloaded (with Retry-After) when no worker is free: the"
              + " payment was created all the same and goes on in the background; a retry with"
              + " the same Idempotency-Key returns it. 503 shutting_down: this node is stopping;"
              + " send the request to another node. 503 intake_closed: operators closed the intake"
              + " of new payments on every node (/ops/intake); nothing was written, existing"
              + " payments go on.")
  @ApiResponse(responseCode = "201", description = "created by this request")
  @ApiResponse(
      responseCode = "200",
      description = "the flow of an earlier request with this key, or the goal's live attempt")
  @Refusal(status = 400, code = "missing_body", message = "a JSON body is required")
  @Refusal(status = 400, code = "missing_field", message = "amount is required")
  @Refusal(status = 400, code = "field_too_long", message = "bizKey is longer than 160")
  @Refusal(status = 400, code = "invalid_field", message = "scene contains control characters")
  @Refusal(
      status = 400,
      code = "invalid_amount",
      message = "amount must be a positive number of minor units")
  @Refusal(status = 400, code = "invalid_user_id", message = "userId must be positive")
  @Refusal(status = 400, code = "unknown_currency", message = "currency must be an ISO 4217 code")
  @Refusal(
      status = 400,
      code = "invalid_deadline",
      message = "bizDeadline must be an ISO-8601 instant such as 2026-12-01T10:00:00Z")
  @Refusal(
      status = 400,
      code = "amount_too_large",
      message = "amount exceeds the configured maximum of 100000000")
  @Refusal(status = 400, code = "deadline_passed", message = "bizDeadline is not in the future")
  @Refusal(
      status = 400,
      code = "deadline_too_far",
      message = "bizDeadline is more than 400 days ahead")
  @Refusal(
      status = 409,
      code = "idempotency_key_in_use",
      message = "a request with this Idempotency-Key is still running; retry shortly")
  @Refusal(
      status = 422,
      code = "idempotency_key_reused",
      message = "this Idempotency-Key was used with other parameters")
  @Refusal(
      status = 503,
      code = "overloaded",
      message = "the payment was accepted but no worker is free to start it now")
  @Refusal(
      status = 503,
      code = "shutting_down",
      message = "this node is shutting down; send the request to another node")
  @Refusal(
      status = 503,
      code = "intake_closed",
      message = "new payments are not accepted now; existing payments go on")
  @PostMapping(path = "/payments", consumes = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<FlowView> create(
      @RequestHeader(name = "Idempotency-Key", required = false) String idempotencyKey,
      @RequestBody(required = false) CreatePaymentRequest body,
      HttpServletRequest request) {
    PaymentApi.Answer answer = api.create(merchant(request), idempotencyKey, body);
    ResponseEntity.BodyBuilder response =
        ResponseEntity.status(answer.created() ? HttpStatus.CREATED : HttpStatus.OK);
    if (answer.replayed()) {
      response.header("Idempotent-Replayed", "true");
    }
    return response.body(answer.flow());
  }

  @Operation(
      operationId = "cancelPayment",
      summary = "Cancel a payment",
      description =
          "Closes the flow if no payment call was made; while the charge is unknown the cancel is"
              + " recorded and a charge that lands is refunded, never fulfilled; 409"
              + " cancel_not_possible once the charge is confirmed. Another merchant's flow"
              + " answers 404 flow_not_found.")
  @Refusal(status = 404, code = "flow_not_found", message = "no such payment flow")
  @Refusal(
      status = 409,
      code = "cancel_not_possible",
      message = "the charge is already confirmed; money goes back through a refund")
  @PostMapping("/payment-flows/{flowId}/cancel")
  public FlowView cancel(@PathVariable("flowId") long flowId, HttpServletRequest request) {
    return api.cancel(merchant(request), flowId);
  }

  @Operation(
      operationId = "getPaymentFlow",
      summary = "Read one payment flow (poll until its status is final)",
      description = "Only the caller's own flows: any other id answers 404 flow_not_found.")
  @Refusal(status = 404, code = "flow_not_found", message = "no such payment flow")
  @GetMapping("/payment-flows/{flowId}")
  public FlowView get(@PathVariable("flowId") long flowId, HttpServletRequest request) {
    return api.get(merchant(request), flowId);
  }

  @Operation(
      operationId = "listPaymentFlows",
      summary = "The caller's attempts of a business key, newest first, 100 at most per page",
      description =
          "Pass nextCursor as cursor to read the next page; nextCursor is null on the last"
              + " page.")
  @Refusal(
      status = 400,
      code = "invalid_parameter",
      message = "bizKey is required (at most 160 characters)")
  @Refusal(
      status = 400,
      code = "invalid_cursor",
      message = "cursor must be the nextCursor of a previous page")
  @GetMapping("/payment-flows")
  public FlowPage byBizKey(
      @RequestParam(name = "bizKey", required = false) String bizKey,
      @RequestParam(name = "userId", required = false) Long userId,
      @RequestParam(name = "scene", required = false) String scene,
      @RequestParam(name = "cursor", required = false) String cursor,
      @RequestParam(name = "limit", required = false) Integer limit,
      HttpServletRequest request) {
    return api.byBizKey(merchant(request), bizKey, userId, scene, cursor, limit);
  }

  /** The merchant of the calling key (ApiKeyFilter admits only merchant keys to /v1). */
  static String merchant(HttpServletRequest request) {
    return ((ApiKeys.Principal) request.getAttribute(ApiKeyFilter.PRINCIPAL)).id();
  }
}
