package dev.clearway.service.refund;

import dev.clearway.service.api.ApiKeyFilter;
import dev.clearway.service.api.ApiKeys;
import dev.clearway.service.api.Refusal;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
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

/** HTTP face of {@link RefundApi}. Merchant keys only (ApiKeyFilter guards /v1/**). */
@RestController
@Tag(name = "refunds", description = "After-sales refunds of the calling merchant's payments")
@RequestMapping(path = "/v1", produces = MediaType.APPLICATION_JSON_VALUE)
public class RefundController {
  private final RefundApi api;

  public RefundController(RefundApi api) {
    this.api = api;
  }

  @Operation(
      operationId = "createRefund",
      summary = "Refund part or all of a payment whose business succeeded (idempotent by key)",
      description =
          "Only for a flow in BIZ_SUCCESS (else 409 refund_not_allowed); amount at most what was"
              + " paid minus what is refunded or in flight (else 422 refund_exceeds_payment)."
              + " Sends the refund synchronously up to a short deadline; a status of PENDING or"
              + " PROCESSING means poll GET /v1/refunds/{refundId} after pollAfterMs. 503"
              + " overloaded (with Retry-After) when no worker is free: the refund was created all"
              + " the same and is sent in the background; a retry with the same key returns it.")
  @ApiResponse(
      responseCode = "201",
      description = "created by this request",
      headers = @Header(name = "Location", description = "the refund's URL"))
  @ApiResponse(
      responseCode = "200",
      description = "the refund of an earlier request with this key",
      headers = @Header(name = "Location", description = "the refund's URL"))
  @Refusal(status = 400, code = "missing_body", message = "a JSON body is required")
  @Refusal(
      status = 400,
      code = "idempotency_key_reserved",
      message = "Idempotency-Keys starting with refund-batch- are reserved for batch refunds")
  @Refusal(
      status = 400,
      code = "invalid_amount",
      message = "amount is required and must be a positive number of minor units")
  @Refusal(
      status = 400,
      code = "invalid_reason",
      message = "reason is required: at most 200 characters, no control characters")
  @Refusal(status = 404, code = "flow_not_found", message = "no such payment flow")
  @Refusal(
      status = 409,
      code = "refund_not_allowed",
      message = "a refund needs a payment whose business succeeded (state PAYING)")
  @Refusal(
      status = 422,
      code = "refund_exceeds_payment",
      message = "at most 590 can still be refunded (paid 990, refunded or in flight 400)")
  @Refusal(
      status = 422,
      code = "idempotency_key_reused",
      message = "this Idempotency-Key was used with other parameters")
  @Refusal(
      status = 503,
      code = "overloaded",
      message = "the refund was accepted but no worker is free to send it now")
  @PostMapping(
      path = "/payment-flows/{flowId}/refunds",
      consumes = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<RefundView> create(
      @PathVariable("flowId") long flowId,
      @RequestHeader(name = "Idempotency-Key", required = false) String idempotencyKey,
      @RequestBody(required = false) CreateRefundRequest body,
      HttpServletRequest request) {
    RefundApi.Answer answer = api.create(merchant(request), flowId, idempotencyKey, body);
    ResponseEntity.BodyBuilder response =
        ResponseEntity.status(answer.created() ? HttpStatus.CREATED : HttpStatus.OK)
            .location(URI.create("/v1/refunds/" + answer.refund().refundId()));
    if (answer.replayed()) {
      response.header("Idempotent-Replayed", "true");
    }
    return response.body(answer.refund());
  }

  @Operation(
      operationId = "getRefund",
      summary = "Read one refund (poll until its status is final)",
      description = "Only the caller's own refunds: any other id answers 404 refund_not_found.")
  @Refusal(status = 404, code = "refund_not_found", message = "no such refund")
  @GetMapping("/refunds/{refundId}")
  public RefundView get(@PathVariable("refundId") long refundId, HttpServletRequest request) {
    return api.get(merchant(request), refundId);
  }

  @Operation(
      operationId = "listRefunds",
      summary = "The refunds of one of the caller's payment flows, by seq, 100 at most per page",
      description =
          "Pass nextCursor as cursor to read the next page; nextCursor is null on the last"
              + " page.")
  @Refusal(status = 404, code = "flow_not_found", message = "no such payment flow")
  @Refusal(status = 400, code = "invalid_parameter", message = "limit must be between 1 and 100")
  @Refusal(
      status = 400,
      code = "invalid_cursor",
      message = "cursor must be the nextCursor of a previous page")
  @GetMapping("/payment-flows/{flowId}/refunds")
  public RefundApi.RefundPage byFlow(
      @PathVariable("flowId") long flowId,
      @RequestParam(name = "cursor", required = false) String cursor,
      @RequestParam(name = "limit", required = false) Integer limit,
      HttpServletRequest request) {
    return api.byFlow(merchant(request), flowId, cursor, limit);
  }

  private static String merchant(HttpServletRequest request) {
    return ((ApiKeys.Principal) request.getAttribute(ApiKeyFilter.PRINCIPAL)).id();
  }
}
