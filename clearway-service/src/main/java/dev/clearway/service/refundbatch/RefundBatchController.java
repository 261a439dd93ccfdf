package dev.clearway.service.refundbatch;

import dev.clearway.core.refundbatch.domain.BatchState;
import dev.clearway.core.refundbatch.domain.ItemOutcome;
import dev.clearway.core.refundbatch.domain.RefundBatch;
import dev.clearway.core.refundbatch.port.RefundBatchCommands;
import dev.clearway.core.refundbatch.port.RefundBatchCommands.Proposal;
import dev.clearway.core.refundbatch.port.RefundBatchCommands.ReportLine;
import dev.clearway.core.refundbatch.port.RefundBatchCommands.Result;
import dev.clearway.service.api.ApiException;
import dev.clearway.service.api.ApiKeys.Principal;
import dev.clearway.service.api.Role;
import io.swagger.v3.oas.annotations.Operation;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
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
 * Batch refunds by maker/checker: an operator proposes a batch (the paid goals of a merchant's
 * scene, optionally a window or a list of business keys) with a ticket and a reason; a different
 * person with the approver role approves or rejects it; operators and approvers pause, resume and
 * cancel it and read its progress and report. Refusals are 400 (bad input), 403 (wrong role), 404
 * {@code batch_not_found} or 409 with a stable code ({@code same_person}, {@code
 * batch_already_open}, {@code batch_not_proposed}, {@code batch_state}, {@code nothing_to_refund},
 * {@code batch_too_large}); none writes anything. Every act is audited.
 */
@RestController
@RequestMapping(path = "/ops/refund-batches", produces = MediaType.APPLICATION_JSON_VALUE)
public class RefundBatchController {
  private static final int MAX_PAGE = 500;

  private final RefundBatchCommands batches;
  private final Clock clock;

  public RefundBatchController(RefundBatchCommands batches, ObjectProvider<Clock> clock) {
    this.batches = batches;
    this.clock = clock.getIfAvailable(Clock::systemUTC);
  }

  @Operation(summary = "Propose a batch refund (operator); it runs once another person approves")
  @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<BatchView> propose(
      @RequestBody(required = false) BatchProposalRequest body, HttpServletRequest request) {
    Principal operator = BatchRequests.principal(request, Role.OPERATOR);
    if (body == null) {
      throw ApiException.badRequest("missing_body", "a JSON body is required");
    }
    Proposal proposal =
        new Proposal(
            BatchRequests.scope(body),
            operator.id(),
            BatchRequests.text(body.ticket(), "ticket", 64),
            BatchRequests.text(body.reason(), "reason", 500));
    RefundBatch batch = done(batches.propose(proposal, clock.instant()));
    return ResponseEntity.status(HttpStatus.CREATED).body(view(batch, false));
  }

  @Operation(summary = "Approve a proposed batch (approver, not its proposer): it starts running")
  @PostMapping("/{batchId}/approve")
  public BatchView approve(@PathVariable("batchId") long batchId, HttpServletRequest request) {
    Principal approver = BatchRequests.principal(request, Role.APPROVER);
    return view(done(batches.approve(batchId, approver.id(), clock.instant())), false);
  }

  @Operation(summary = "Reject a proposed batch (approver, not its proposer)")
  @PostMapping(path = "/{batchId}/reject", consumes = MediaType.APPLICATION_JSON_VALUE)
  public BatchView reject(
      @PathVariable("batchId") long batchId,
      @RequestBody(required = false) BatchNote body,
      HttpServletRequest request) {
    Principal approver = BatchRequests.principal(request, Role.APPROVER);
    String reason = BatchRequests.text(body == null ? null : body.reason(), "reason", 500);
    return view(done(batches.reject(batchId, approver.id(), reason, clock.instant())), false);
  }

  @Operation(summary = "Pause an approved or running batch; the runner stops at its next item")
  @PostMapping("/{batchId}/pause")
  public BatchView pause(@PathVariable("batchId") long batchId, HttpServletRequest request) {
    Principal p = BatchRequests.person(request);
    return view(done(batches.pause(batchId, p.id(), p.role().name(), clock.instant())), false);
  }

  @Operation(summary = "Resume a paused batch from where it stopped")
  @PostMapping("/{batchId}/resume")
  public BatchView resume(@PathVariable("batchId") long batchId, HttpServletRequest request) {
    Principal p = BatchRequests.person(request);
    return view(done(batches.resume(batchId, p.id(), p.role().name(), clock.instant())), false);
  }

  @Operation(summary = "Cancel a proposed or paused batch; orders already placed go on")
  @PostMapping("/{batchId}/cancel")
  public BatchView cancel(@PathVariable("batchId") long batchId, HttpServletRequest request) {
    Principal p = BatchRequests.person(request);
    return view(done(batches.cancel(batchId, p.id(), p.role().name(), clock.instant())), false);
  }

  @Operation(summary = "Batches, newest first, optionally of one state")
  @GetMapping
  public List<BatchView> list(
      @RequestParam(name = "state", required = false) String state,
      @RequestParam(name = "before", required = false) Long before,
      @RequestParam(name = "limit", defaultValue = "50") int limit,
      HttpServletRequest request) {
    BatchRequests.person(request);
    BatchState filter = state == null || state.isBlank() ? null : parse(BatchState.class, state);
    return batches.list(filter, before == null ? Long.MAX_VALUE : before, page(limit)).stream()
        .map(b -> view(b, false))
        .toList();
  }

  @Operation(summary = "One batch with its progress and audit")
  @GetMapping("/{batchId}")
  public BatchView get(@PathVariable("batchId") long batchId, HttpServletRequest request) {
    BatchRequests.person(request);
    return view(found(batchId), true);
  }

  @Operation(summary = "A batch's report: counts per outcome and the items of one outcome")
  @GetMapping("/{batchId}/report")
  public BatchReport report(
      @PathVariable("batchId") long batchId,
      @RequestParam(name = "outcome", defaultValue = "NEEDS_PERSON") String outcome,
      @RequestParam(name = "after", defaultValue = "0") long after,
      @RequestParam(name = "limit", defaultValue = "100") int limit,
      HttpServletRequest request) {
    BatchRequests.person(request);
    RefundBatch batch = found(batchId);
    ItemOutcome wanted = parse(ItemOutcome.class, outcome);
    int size = page(limit);
    List<ReportLine> lines = batches.items(batchId, wanted, after, size);
    Long next = lines.size() < size ? null : lines.get(lines.size() - 1).itemId();
    BatchView v = view(batch, false);
    return new BatchReport(batchId, v.state(), v.progress(), wanted.name(), lines, next);
  }

  private RefundBatch found(long batchId) {
    return batches
        .find(batchId)
        .orElseThrow(
            () -> new ApiException(HttpStatus.NOT_FOUND, "batch_not_found", "no such batch"));
  }

  private BatchView view(RefundBatch b, boolean withAudit) {
    return BatchView.of(b, batches.progress(b.id()), withAudit ? batches.audit(b.id()) : List.of());
  }

  private static int page(int limit) {
    if (limit < 1 || limit > MAX_PAGE) {
      throw ApiException.badRequest("invalid_parameter", "limit must be 1 to " + MAX_PAGE);
    }
    return limit;
  }

  private static <E extends Enum<E>> E parse(Class<E> type, String value) {
    try {
      return Enum.valueOf(type, value.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest(
          "invalid_parameter", value + " is not a " + type.getSimpleName());
    }
  }

  private static RefundBatch done(Result result) {
    if (result instanceof Result.Done done) {
      return done.batch();
    }
    if (result instanceof Result.Refused refused) {
      throw new ApiException(HttpStatus.CONFLICT, refused.code(), refused.message());
    }
    throw new ApiException(HttpStatus.NOT_FOUND, "batch_not_found", "no such batch");
  }
}
