package dev.clearway.service.node;

import dev.clearway.service.api.ApiException;
import dev.clearway.service.api.ApiKeyFilter;
import dev.clearway.service.api.ApiKeys;
import dev.clearway.service.api.Refusal;
import io.swagger.v3.oas.annotations.Operation;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /ops/intake}: read, close and reopen the intake of new payments for every node. Operator
 * and approver keys (ApiKeyFilter guards {@code /ops/}); a change takes effect at once, without a
 * second person, and is audited with who, when and why.
 */
@RestController
public class IntakeController {
  private static final int MAX_REASON = 500;

  private final IntakeSwitch intake;

  public IntakeController(IntakeSwitch intake) {
    this.intake = intake;
  }

  @Operation(
      summary = "Whether new payments are accepted, with who changed it last, when and why",
      description = "Read from the database: the same answer on every node.")
  @GetMapping(path = "/ops/intake", produces = MediaType.APPLICATION_JSON_VALUE)
  public IntakeSwitch.State state() {
    return intake.read();
  }

  @Operation(
      summary = "Close or reopen the intake of new payments on every node",
      description =
          "{\"open\": false, \"reason\": \"...\"} closes: every node answers POST /v1/payments with"
              + " 503 intake_closed within about a second and writes nothing, while queries,"
              + " cancels, callbacks, refunds and all workers go on with existing payments."
              + " {\"open\": true} reopens. Audited (who, when, reason); no second approval.")
  @Refusal(
      status = 400,
      code = "invalid_parameter",
      message = "a reason is required to close intake")
  @PostMapping(
      path = "/ops/intake",
      consumes = MediaType.APPLICATION_JSON_VALUE,
      produces = MediaType.APPLICATION_JSON_VALUE)
  public IntakeSwitch.State change(
      @RequestBody(required = false) IntakeRequest body, HttpServletRequest request) {
    if (body == null || body.open() == null) {
      throw ApiException.badRequest("invalid_parameter", "open (true or false) is required");
    }
    String reason = body.reason() == null ? null : body.reason().strip();
    if (!body.open() && (reason == null || reason.isEmpty())) {
      throw ApiException.badRequest("invalid_parameter", "a reason is required to close intake");
    }
    if (reason != null && reason.length() > MAX_REASON) {
      throw ApiException.badRequest(
          "invalid_parameter", "reason is at most " + MAX_REASON + " characters");
    }
    ApiKeys.Principal who = (ApiKeys.Principal) request.getAttribute(ApiKeyFilter.PRINCIPAL);
    if (who == null) {
      throw new ApiException(HttpStatus.UNAUTHORIZED, "unauthorized", "a valid key is required");
    }
    return intake.set(body.open(), reason, who.id());
  }
}
