package dev.clearway.service.review;

import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.service.api.ApiException;
import dev.clearway.service.api.MerchantFilter;
import dev.clearway.service.api.Page;
import dev.clearway.service.api.PageCursor;
import dev.clearway.service.api.Refusal;
import dev.clearway.store.JdbcReviewQueries;
import dev.clearway.store.review.AuditEntry;
import dev.clearway.store.review.HistoryEntry;
import dev.clearway.store.review.ManualCommand;
import io.swagger.v3.oas.annotations.Operation;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * What people read in manual review, every list a page ({@code {items, nextCursor}}, newest first
 * by id, at most 100 rows; {@code cursor} is the previous page's {@code nextCursor}): the queue of
 * escalated and frozen flows of every merchant (optionally one merchant's), and one flow's facts
 * with its timeline, commands and audit trail. Operator and approver keys only (ApiKeyFilter guards
 * {@code /ops/}).
 */
@RestController
@RequestMapping(path = "/ops/review/flows", produces = MediaType.APPLICATION_JSON_VALUE)
public class ReviewListsController {
  private final JdbcReviewQueries queries;
  private final FlowStore flows;

  public ReviewListsController(JdbcReviewQueries queries, FlowStore flows) {
    this.queries = queries;
    this.flows = flows;
  }

  @Operation(summary = "Flows escalated or frozen for a person, newest first, with their merchant")
  @GetMapping
  public Page<ReviewFlowView> queue(
      @RequestParam(name = "merchant", required = false) String merchant,
      @RequestParam(name = "cursor", required = false) String cursor,
      @RequestParam(name = "limit", required = false) Integer limit) {
    String only = MerchantFilter.of(merchant);
    int size = PageCursor.size(limit);
    long before = PageCursor.before(cursor);
    List<PayFlow> rows =
        only == null ? queries.queue(before, size + 1) : queries.queueOf(only, before, size + 1);
    return Page.byId(rows.stream().map(ReviewFlowView::of).toList(), size, v -> v.flow().flowId());
  }

  @Operation(summary = "One flow's facts and the first page of its timeline, commands and audit")
  @Refusal(status = 404, code = "flow_not_found", message = "no such payment flow")
  @GetMapping("/{flowId}")
  public ReviewFlowDetail flow(@PathVariable("flowId") long flowId) {
    ReviewFlowView view = ReviewFlowView.of(existing(flowId));
    int size = PageCursor.MAX_SIZE;
    long first = Long.MAX_VALUE;
    return new ReviewFlowDetail(
        view,
        Page.byId(queries.history(flowId, first, size + 1), size, HistoryEntry::id),
        Page.byId(queries.commands(flowId, first, size + 1), size, ManualCommand::id),
        Page.byId(queries.audit(flowId, first, size + 1), size, AuditEntry::id));
  }

  @Operation(summary = "A flow's transitions, newest first")
  @Refusal(status = 404, code = "flow_not_found", message = "no such payment flow")
  @GetMapping("/{flowId}/history")
  public Page<HistoryEntry> history(
      @PathVariable("flowId") long flowId,
      @RequestParam(name = "cursor", required = false) String cursor,
      @RequestParam(name = "limit", required = false) Integer limit) {
    int size = PageCursor.size(limit);
    long before = PageCursor.before(cursor);
    existing(flowId);
    return Page.byId(queries.history(flowId, before, size + 1), size, HistoryEntry::id);
  }

  @Operation(summary = "A flow's manual commands, newest first")
  @Refusal(status = 404, code = "flow_not_found", message = "no such payment flow")
  @GetMapping("/{flowId}/commands")
  public Page<ManualCommand> commands(
      @PathVariable("flowId") long flowId,
      @RequestParam(name = "cursor", required = false) String cursor,
      @RequestParam(name = "limit", required = false) Integer limit) {
    int size = PageCursor.size(limit);
    long before = PageCursor.before(cursor);
    existing(flowId);
    return Page.byId(queries.commands(flowId, before, size + 1), size, ManualCommand::id);
  }

  @Operation(summary = "A flow's audit trail (who proposed, approved, rejected), newest first")
  @Refusal(status = 404, code = "flow_not_found", message = "no such payment flow")
  @GetMapping("/{flowId}/audit")
  public Page<AuditEntry> audit(
      @PathVariable("flowId") long flowId,
      @RequestParam(name = "cursor", required = false) String cursor,
      @RequestParam(name = "limit", required = false) Integer limit) {
    int size = PageCursor.size(limit);
    long before = PageCursor.before(cursor);
    existing(flowId);
    return Page.byId(queries.audit(flowId, before, size + 1), size, AuditEntry::id);
  }

  private PayFlow existing(long flowId) {
    return flows
        .find(flowId)
        .orElseThrow(
            () -> new ApiException(HttpStatus.NOT_FOUND, "flow_not_found", "no such payment flow"));
  }
}
