package dev.clearway.service.api;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
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
              + " pollAfterMs. 503 overloaded (with Retry-After) when no worker is free: the"
              + " payment was created all the same and goes on in the background; a retry with"
              + " the same Idempotency-Key returns it. 503 shutting_down: this node is stopping;"
              + " send the request to another node. 503 intake_closed: operators closed the intake"
              + " of new payments on every node (/ops/intake); nothing was written, existing"
              + " payments go on.")
  @ApiResponse(responseCode = "201", description = "created; 200 when replayed or found")
  @ApiResponse(
      responseCode = "503",
      description = "overloaded (created all the same), shutting_down or intake_closed",
      content = @Content(schema = @Schema(implementation = ApiError.class)))
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
      summary = "Cancel a payment",
      description =
          "Closes the flow if no payment call was made; while the charge is unknown the cancel is"
              + " recorded and a charge that lands is refunded, never fulfilled; 409"
              + " cancel_not_possible once the charge is confirmed. Another merchant's flow"
              + " answers 404 flow_not_found.")
  @PostMapping("/payment-flows/{flowId}/cancel")
  public FlowView cancel(@PathVariable("flowId") long flowId, HttpServletRequest request) {
    return api.cancel(merchant(request), flowId);
  }

  @Operation(
      summary = "Read one payment flow (poll until its status is final)",
      description = "Only the caller's own flows: any other id answers 404 flow_not_found.")
  @GetMapping("/payment-flows/{flowId}")
  public FlowView get(@PathVariable("flowId") long flowId, HttpServletRequest request) {
    return api.get(merchant(request), flowId);
  }

  @Operation(
      summary = "The caller's attempts of a business key, newest first, 100 at most per page",
      description =
          "Pass nextCursor as cursor to read the next page; nextCursor is null on the last"
              + " page.")
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
