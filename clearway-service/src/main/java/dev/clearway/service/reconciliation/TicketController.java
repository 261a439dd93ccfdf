package dev.clearway.service.reconciliation;

import dev.clearway.core.reconciliation.domain.TicketCommand;
import dev.clearway.core.reconciliation.domain.TicketKind;
import dev.clearway.core.reconciliation.port.TicketCommands;
import dev.clearway.core.reconciliation.port.TicketCommands.Result;
import dev.clearway.service.api.ApiException;
import dev.clearway.service.api.ApiKeys.Principal;
import dev.clearway.service.api.Refusal;
import dev.clearway.service.api.Role;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Clock;
import java.util.function.Consumer;
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
 * Resolving the differences that wait for a person, by maker/checker: an operator proposes how a
 * ticket is closed (RESOLVE_REPAIRED_OUTSIDE or ACCEPT_DIFFERENCE) with its evidence, and it takes
 * effect only when a different person with the approver role approves it. Refusals are 400 (bad
 * input), 403 (wrong role), 404 (no such difference or command) or 409 with a stable code ({@code
 * same_person}, {@code command_already_open}, {@code command_not_open}, {@code
 * difference_not_waiting}); none writes anything. Every act is audited.
 */
@RestController
@RequestMapping(path = "/ops/reconciliation", produces = MediaType.APPLICATION_JSON_VALUE)
public class TicketController {
  private final TicketCommands commands;
  private final Clock clock;
  private final Consumer<TicketCommand> decided;

  public TicketController(
      TicketCommands commands, ObjectProvider<Clock> clock, ObjectProvider<ReconMetrics> metrics) {
    this.commands = commands;
    this.clock = clock.getIfAvailable(Clock::systemUTC);
    ReconMetrics m = metrics.getIfAvailable();
    this.decided = m == null ? c -> {} : m::ticketDecided;
  }

  @Operation(summary = "Propose how a ticket is closed (operator); it takes effect once approved")
  @Refusal(status = 400, code = "missing_body", message = "a JSON body is required")
  @Refusal(
      status = 400,
      code = "invalid_command",
      message = "kind must be RESOLVE_REPAIRED_OUTSIDE or ACCEPT_DIFFERENCE")
  @Refusal(status = 400, code = "missing_field", message = "reason is required")
  @Refusal(status = 400, code = "field_too_long", message = "reason is longer than 500")
  @Refusal(status = 403, code = "forbidden", message = "this needs an operator key")
  @Refusal(status = 404, code = "not_found", message = "no such difference or command")
  @Refusal(
      status = 409,
      code = "difference_not_waiting",
      message = "the difference is REPAIRED, not NEEDS_PERSON")
  @Refusal(
      status = 409,
      code = "command_already_open",
      message = "the difference already has an open command")
  @ApiResponse(responseCode = "201", description = "created")
  @PostMapping(
      path = "/differences/{differenceId}/commands",
      consumes = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<TicketCommand> propose(
      @PathVariable("differenceId") long differenceId,
      @RequestBody(required = false) TicketRequest body,
      HttpServletRequest request) {
    Principal operator = OpsRequests.principal(request, Role.OPERATOR);
    if (body == null) {
      throw ApiException.badRequest("missing_body", "a JSON body is required");
    }
    TicketKind kind = kind(body.kind());
    TicketCommands.Proposal proposal =
        new TicketCommands.Proposal(
            differenceId,
            kind,
            operator.id(),
            OpsRequests.text(body.ticket(), "ticket", 64),
            OpsRequests.text(body.reason(), "reason", 500),
            OpsRequests.text(body.evidence(), "evidence", 2000));
    TicketCommand command = done(commands.propose(proposal, clock.instant()));
    return ResponseEntity.status(HttpStatus.CREATED).body(command);
  }

  @Operation(summary = "Approve a ticket command (approver, not its proposer): resolves the ticket")
  @Refusal(status = 403, code = "forbidden", message = "this needs an approver key")
  @Refusal(status = 404, code = "not_found", message = "no such difference or command")
  @Refusal(status = 409, code = "command_not_open", message = "the command is APPLIED")
  @Refusal(
      status = 409,
      code = "same_person",
      message = "a command must be decided by another person than its proposer")
  @PostMapping("/commands/{commandId}/approve")
  public TicketCommand approve(
      @PathVariable("commandId") long commandId, HttpServletRequest request) {
    Principal approver = OpsRequests.principal(request, Role.APPROVER);
    TicketCommand command = done(commands.approve(commandId, approver.id(), clock.instant()));
    decided.accept(command);
    return command;
  }

  @Operation(summary = "Reject a ticket command (approver, not its proposer)")
  @Refusal(status = 400, code = "missing_field", message = "reason is required")
  @Refusal(status = 400, code = "field_too_long", message = "reason is longer than 500")
  @Refusal(status = 403, code = "forbidden", message = "this needs an approver key")
  @Refusal(status = 404, code = "not_found", message = "no such difference or command")
  @Refusal(status = 409, code = "command_not_open", message = "the command is APPLIED")
  @Refusal(
      status = 409,
      code = "same_person",
      message = "a command must be decided by another person than its proposer")
  @PostMapping(path = "/commands/{commandId}/reject", consumes = MediaType.APPLICATION_JSON_VALUE)
  public TicketCommand reject(
      @PathVariable("commandId") long commandId,
      @RequestBody(required = false) TicketRejection body,
      HttpServletRequest request) {
    Principal approver = OpsRequests.principal(request, Role.APPROVER);
    String reason = OpsRequests.text(body == null ? null : body.reason(), "reason", 500);
    TicketCommand command =
        done(commands.reject(commandId, approver.id(), reason, clock.instant()));
    decided.accept(command);
    return command;
  }

  private static TicketCommand done(Result result) {
    if (result instanceof Result.Done done) {
      return done.command();
    }
    if (result instanceof Result.Refused refused) {
      throw new ApiException(HttpStatus.CONFLICT, refused.code(), refused.message());
    }
    throw new ApiException(HttpStatus.NOT_FOUND, "not_found", "no such difference or command");
  }

  private static TicketKind kind(String name) {
    try {
      return TicketKind.valueOf(name == null ? "" : name);
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest(
          "invalid_command", "kind must be RESOLVE_REPAIRED_OUTSIDE or ACCEPT_DIFFERENCE");
    }
  }
}
