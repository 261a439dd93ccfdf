package dev.clearway.service.review;

import dev.clearway.boot.EngineAssembly;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.review.CommandKind;
import dev.clearway.service.api.ApiException;
import dev.clearway.service.api.ApiKeys.Principal;
import dev.clearway.service.api.OpsCallers;
import dev.clearway.service.api.Refusal;
import dev.clearway.service.api.Role;
import dev.clearway.store.JdbcReviewStore;
import dev.clearway.store.JdbcReviewStore.Result;
import dev.clearway.store.review.ManualCommand;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Manual review's commands: proposed by an operator and applied only when a different person with
 * the approver role approves them. Every act is audited. (The queue and a flow's facts, timeline,
 * commands and audit are read through {@link ReviewListsController}.)
 */
@RestController
@RequestMapping(path = "/ops/review", produces = MediaType.APPLICATION_JSON_VALUE)
public class ReviewController {
  private final JdbcReviewStore review;
  private final EngineAssembly engine;
  private final Clock clock;

  public ReviewController(
      JdbcReviewStore review, EngineAssembly engine, ObjectProvider<Clock> clock) {
    this.review = review;
    this.engine = engine;
    this.clock = clock.getIfAvailable(Clock::systemUTC);
  }

  @Operation(summary = "Propose a command (operator); it takes effect only once approved")
  @Refusal(status = 400, code = "missing_body", message = "a JSON body is required")
  @Refusal(
      status = 400,
      code = "invalid_command",
      message = "kind must be CONFIRM_BIZ_SUCCESS, FORCE_REFUND or RESUME")
  @Refusal(status = 400, code = "missing_field", message = "reason is required")
  @Refusal(status = 400, code = "field_too_long", message = "reason is longer than 500")
  @Refusal(status = 403, code = "forbidden", message = "this needs an operator key")
  @Refusal(status = 404, code = "not_found", message = "no such flow or command")
  @Refusal(
      status = 409,
      code = "command_not_applicable",
      message = "the flow's state does not allow this command")
  @Refusal(
      status = 409,
      code = "command_already_open",
      message = "the flow already has an open command")
  @ApiResponse(responseCode = "201", description = "created")
  @PostMapping(path = "/flows/{flowId}/commands", consumes = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<ManualCommand> propose(
      @PathVariable("flowId") long flowId,
      @RequestBody(required = false) ProposeRequest body,
      HttpServletRequest request) {
    Principal operator = OpsCallers.principal(request, Role.OPERATOR);
    if (body == null) {
      throw ApiException.badRequest("missing_body", "a JSON body is required");
    }
    CommandKind kind = kind(body.kind());
    String ticket = OpsCallers.requiredText(body.ticket(), "ticket", 64);
    String reason = OpsCallers.requiredText(body.reason(), "reason", 500);
    String evidence = OpsCallers.requiredText(body.evidence(), "evidence", 2000);
    Result result =
        review.propose(flowId, kind, operator.id(), ticket, reason, evidence, clock.instant());
    return ResponseEntity.status(HttpStatus.CREATED).body(done(result));
  }

  @Operation(summary = "Approve a command (approver, not its proposer): applies it")
  @Refusal(status = 403, code = "forbidden", message = "this needs an approver key")
  @Refusal(status = 404, code = "not_found", message = "no such flow or command")
  @Refusal(status = 409, code = "command_not_open", message = "the command is APPLIED")
  @Refusal(
      status = 409,
      code = "same_person",
      message = "a command must be decided by another person than its proposer")
  @Refusal(
      status = 409,
      code = "command_not_applicable",
      message = "the flow's state does not allow this command")
  @PostMapping("/commands/{commandId}/approve")
  public ManualCommand approve(
      @PathVariable("commandId") long commandId, HttpServletRequest request) {
    Principal approver = OpsCallers.principal(request, Role.APPROVER);
    ManualCommand command = done(review.approve(commandId, approver.id(), clock.instant()));
    if ("APPLIED".equals(command.state())) {
      // A refund to send, or retries to resume: hand the flow to the advancer now.
      engine.runtime().wake(command.flowId(), TriggerSource.MANUAL);
    }
    return command;
  }

  @Operation(summary = "Reject a command (approver, not its proposer)")
  @Refusal(status = 400, code = "missing_field", message = "reason is required")
  @Refusal(status = 400, code = "field_too_long", message = "reason is longer than 500")
  @Refusal(status = 403, code = "forbidden", message = "this needs an approver key")
  @Refusal(status = 404, code = "not_found", message = "no such flow or command")
  @Refusal(status = 409, code = "command_not_open", message = "the command is APPLIED")
  @Refusal(
      status = 409,
      code = "same_person",
      message = "a command must be decided by another person than its proposer")
  @PostMapping(path = "/commands/{commandId}/reject", consumes = MediaType.APPLICATION_JSON_VALUE)
  public ManualCommand reject(
      @PathVariable("commandId") long commandId,
      @RequestBody(required = false) RejectRequest body,
      HttpServletRequest request) {
    Principal approver = OpsCallers.principal(request, Role.APPROVER);
    String reason = OpsCallers.requiredText(body == null ? null : body.reason(), "reason", 500);
    return done(review.reject(commandId, approver.id(), reason, clock.instant()));
  }

  private static ManualCommand done(Result result) {
    if (result instanceof Result.Done done) {
      return done.command();
    }
    if (result instanceof Result.Refused refused) {
      throw new ApiException(HttpStatus.CONFLICT, refused.code(), refused.message());
    }
    throw new ApiException(HttpStatus.NOT_FOUND, "not_found", "no such flow or command");
  }

  private static CommandKind kind(String name) {
    try {
      return CommandKind.valueOf(name == null ? "" : name);
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest(
          "invalid_command",
          "kind must be one of " + java.util.Arrays.toString(CommandKind.values()));
    }
  }
}
