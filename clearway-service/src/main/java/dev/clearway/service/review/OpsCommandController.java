package dev.clearway.service.review;

import dev.clearway.boot.EngineAssembly;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.review.OpsCommandKind;
import dev.clearway.core.review.TargetKind;
import dev.clearway.service.api.ApiException;
import dev.clearway.service.api.ApiKeys.Principal;
import dev.clearway.service.api.OpsCallers;
import dev.clearway.service.api.Page;
import dev.clearway.service.api.PageCursor;
import dev.clearway.service.api.Role;
import dev.clearway.service.refund.RefundEngine;
import dev.clearway.store.JdbcOpsCommandStore;
import dev.clearway.store.JdbcOpsCommandStore.Proposal;
import dev.clearway.store.JdbcOpsCommandStore.Result;
import dev.clearway.store.review.OpsCommand;
import io.swagger.v3.oas.annotations.Operation;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Clock;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Commands on the cases that wait for a person other than flows (flows: {@link ReviewController}):
 * ABNORMAL refund orders, attempts whose result cannot be known, compensations a worker could not
 * settle. Proposed by an operator, applied only when a different named approver approves; every act
 * is audited; a refusal answers a stable code and writes nothing.
 */
@RestController
@RequestMapping(path = "/ops/commands", produces = MediaType.APPLICATION_JSON_VALUE)
public class OpsCommandController {
  private static final String KINDS =
      Arrays.stream(OpsCommandKind.values()).map(Enum::name).collect(Collectors.joining(", "));

  private final JdbcOpsCommandStore store;
  private final EngineAssembly engine;
  private final ObjectProvider<RefundEngine> refunds;
  private final Clock clock;

  public OpsCommandController(
      JdbcOpsCommandStore store,
      EngineAssembly engine,
      ObjectProvider<RefundEngine> refunds,
      ObjectProvider<Clock> clock) {
    this.store = store;
    this.engine = engine;
    this.refunds = refunds;
    this.clock = clock.getIfAvailable(Clock::systemUTC);
  }

  @Operation(summary = "Propose a command on a refund order, attempt or compensation (operator)")
  @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<OpsCommand> propose(
      @RequestBody(required = false) OpsProposeRequest body, HttpServletRequest request) {
    Principal operator = OpsCallers.principal(request, Role.OPERATOR);
    if (body == null) {
      throw ApiException.badRequest("missing_body", "a JSON body is required");
    }
    OpsCommandKind kind = kind(body.kind());
    if (body.targetId() == null || body.targetId() <= 0) {
      throw ApiException.badRequest("missing_field", "targetId is required");
    }
    Proposal proposal =
        new Proposal(
            kind,
            body.targetId(),
            operator.id(),
            OpsCallers.requiredText(body.ticket(), "ticket", 64),
            OpsCallers.requiredText(body.reason(), "reason", 500),
            OpsCallers.requiredText(body.evidence(), "evidence", 2000),
            amount(kind, body.amount()));
    Result result = store.propose(proposal, clock.instant());
    return ResponseEntity.status(HttpStatus.CREATED).body(done(result));
  }

  @Operation(summary = "Approve a command (approver, not its proposer): applies it")
  @PostMapping("/{commandId}/approve")
  public OpsCommand approve(@PathVariable("commandId") long commandId, HttpServletRequest request) {
    Principal approver = OpsCallers.principal(request, Role.APPROVER);
    OpsCommand command = done(store.approve(commandId, approver.id(), clock.instant()));
    wake(command);
    return command;
  }

  @Operation(summary = "Reject a command (approver, not its proposer)")
  @PostMapping(path = "/{commandId}/reject", consumes = MediaType.APPLICATION_JSON_VALUE)
  public OpsCommand reject(
      @PathVariable("commandId") long commandId,
      @RequestBody(required = false) RejectRequest body,
      HttpServletRequest request) {
    Principal approver = OpsCallers.principal(request, Role.APPROVER);
    String reason = OpsCallers.requiredText(body == null ? null : body.reason(), "reason", 500);
    return done(store.reject(commandId, approver.id(), reason, clock.instant()));
  }

  @Operation(summary = "Open proposals on refund orders, attempts and compensations, newest first")
  @GetMapping
  public Page<OpsCommand> open(
      @RequestParam(name = "cursor", required = false) String cursor,
      @RequestParam(name = "limit", required = false) Integer limit,
      HttpServletRequest request) {
    OpsCallers.person(request);
    int size = PageCursor.size(limit);
    return Page.byId(store.openCommands(PageCursor.before(cursor), size + 1), size, OpsCommand::id);
  }

  @Operation(summary = "The commands of one target (REFUND_ORDER, ATTEMPT or COMPENSATION)")
  @GetMapping("/targets/{targetKind}/{targetId}")
  public Page<OpsCommand> ofTarget(
      @PathVariable("targetKind") String targetKind,
      @PathVariable("targetId") long targetId,
      @RequestParam(name = "cursor", required = false) String cursor,
      @RequestParam(name = "limit", required = false) Integer limit,
      HttpServletRequest request) {
    OpsCallers.person(request);
    TargetKind kind;
    try {
      kind = TargetKind.valueOf(targetKind);
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest(
          "invalid_target", "targetKind must be REFUND_ORDER, ATTEMPT or COMPENSATION");
    }
    int size = PageCursor.size(limit);
    return Page.byId(
        store.commands(kind, targetId, PageCursor.before(cursor), size + 1), size, OpsCommand::id);
  }

  /**
   * Hands the moved row to its engine now: a refund to query (and re-send by the same number), or
   * the flow whose gateway reads the settled attempt. A compensation sent back to PENDING is due
   * now and found by the compensation worker's next claim.
   */
  private void wake(OpsCommand command) {
    if (!"APPLIED".equals(command.state())) {
      return;
    }
    switch (command.targetKind()) {
      case REFUND_ORDER -> {
        RefundEngine refundEngine = refunds.getIfAvailable();
        if (refundEngine != null) {
          refundEngine.runtime().wake(command.targetId(), TriggerSource.MANUAL);
        }
      }
      case ATTEMPT ->
          store
              .flowOfAttempt(command.targetId())
              .ifPresent(flowId -> engine.runtime().wake(flowId, TriggerSource.MANUAL));
      case COMPENSATION, FLOW -> {}
    }
  }

  private static OpsCommand done(Result result) {
    if (result instanceof Result.Done done) {
      return done.command();
    }
    if (result instanceof Result.Refused refused) {
      throw new ApiException(HttpStatus.CONFLICT, refused.code(), refused.message());
    }
    throw new ApiException(HttpStatus.NOT_FOUND, "not_found", "no such target or command");
  }

  /** The charged amount a mismatch refund or hand-over names; no other command takes one. */
  private static Long amount(OpsCommandKind kind, Long amount) {
    if (!kind.takesAmount()) {
      if (amount != null) {
        throw ApiException.badRequest("invalid_amount", kind + " takes no amount");
      }
      return null;
    }
    if (amount == null) {
      throw ApiException.badRequest(
          "missing_field", "amount (the amount the PSP charged, in minor units) is required");
    }
    if (amount <= 0) {
      throw ApiException.badRequest("invalid_amount", "amount must be a positive number");
    }
    return amount;
  }

  private static OpsCommandKind kind(String name) {
    try {
      return OpsCommandKind.valueOf(name == null ? "" : name);
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest("invalid_command", "kind must be one of " + KINDS);
    }
  }
}
