package dev.clearway.service.reconciliation;

import dev.clearway.core.reconciliation.domain.DifferenceClass;
import dev.clearway.core.reconciliation.domain.DifferenceState;
import dev.clearway.core.reconciliation.domain.MatchConfidence;
import dev.clearway.core.reconciliation.domain.RecordedDifference;
import dev.clearway.core.reconciliation.domain.TicketAudit;
import dev.clearway.core.reconciliation.domain.TicketCommand;
import dev.clearway.core.reconciliation.port.ReconRuns;
import dev.clearway.service.api.ApiException;
import dev.clearway.service.api.Page;
import dev.clearway.service.api.PageCursor;
import dev.clearway.service.api.Refusal;
import dev.clearway.store.reconciliation.DifferenceFilter;
import dev.clearway.store.reconciliation.JdbcReconQueries;
import dev.clearway.store.reconciliation.OpenDifferences;
import dev.clearway.store.reconciliation.StatementLineEvidence;
import io.swagger.v3.oas.annotations.Operation;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What people read of reconciliation: the last run of each account, the differences (filtered by
 * account, class, state and confidence; a page newest first by id, {@code cursor} the previous
 * page's {@code nextCursor}), one difference with its evidence and history, the open differences by
 * class, and the tickets waiting for a person. Operator and approver keys only (ApiKeyFilter guards
 * {@code /ops/}; merchants get 403).
 */
@RestController
@RequestMapping(path = "/ops/reconciliation", produces = MediaType.APPLICATION_JSON_VALUE)
public class ReconciliationController {
  private static final int HISTORY_ROWS = 200;
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final JdbcReconQueries queries;
  private final ReconRuns runs;
  private final Clock clock;

  public ReconciliationController(
      JdbcReconQueries queries, ReconRuns runs, ObjectProvider<Clock> clock) {
    this.queries = queries;
    this.runs = runs;
    this.clock = clock.getIfAvailable(Clock::systemUTC);
  }

  @Operation(summary = "The last reconciliation run of each account, newest first")
  @GetMapping("/runs")
  public List<RunView> runs(HttpServletRequest request) {
    OpsRequests.person(request);
    return runs.latestPerAccount().stream().map(RunView::of).toList();
  }

  @Operation(summary = "Differences, newest first, filtered by account, class, state, confidence")
  @Refusal(
      status = 400,
      code = "invalid_parameter",
      message = "state must be one of OPEN, AUTO_REPAIRING, NEEDS_PERSON, RESOLVED")
  @GetMapping("/differences")
  public Page<DifferenceView> differences(
      @RequestParam(name = "account", required = false) String account,
      @RequestParam(name = "class", required = false) String kind,
      @RequestParam(name = "state", required = false) String state,
      @RequestParam(name = "confidence", required = false) String confidence,
      @RequestParam(name = "cursor", required = false) String cursor,
      @RequestParam(name = "limit", required = false) Integer limit,
      HttpServletRequest request) {
    OpsRequests.person(request);
    DifferenceFilter filter =
        new DifferenceFilter(
            account(account),
            OpsRequests.optional(kind, "class", DifferenceClass.class, DifferenceClass::valueOf),
            OpsRequests.optional(state, "state", DifferenceState.class, DifferenceState::valueOf),
            OpsRequests.optional(
                confidence, "confidence", MatchConfidence.class, MatchConfidence::valueOf));
    return page(filter, cursor, limit);
  }

  @Operation(summary = "Differences waiting for a person (NEEDS_PERSON), newest first")
  @Refusal(
      status = 400,
      code = "invalid_parameter",
      message = "account must be 1 to 128 characters")
  @GetMapping("/tickets")
  public Page<DifferenceView> tickets(
      @RequestParam(name = "account", required = false) String account,
      @RequestParam(name = "cursor", required = false) String cursor,
      @RequestParam(name = "limit", required = false) Integer limit,
      HttpServletRequest request) {
    OpsRequests.person(request);
    return page(
        new DifferenceFilter(account(account), null, DifferenceState.NEEDS_PERSON, null),
        cursor,
        limit);
  }

  @Operation(summary = "One difference with its statement line, history, commands and audit")
  @Refusal(status = 404, code = "difference_not_found", message = "no such difference")
  @GetMapping("/differences/{id}")
  public DifferenceDetail difference(@PathVariable("id") long id, HttpServletRequest request) {
    OpsRequests.person(request);
    RecordedDifference d =
        queries
            .difference(id)
            .orElseThrow(
                () ->
                    new ApiException(
                        HttpStatus.NOT_FOUND, "difference_not_found", "no such difference"));
    StatementLineEvidence line =
        d.statementFileId() == null || d.statementLineNo() == null
            ? null
            : queries.statementLine(d.statementFileId(), d.statementLineNo()).orElse(null);
    int size = PageCursor.MAX_SIZE;
    return new DifferenceDetail(
        DifferenceView.of(d, clock.instant()),
        queries.evidence(id).map(ReconciliationController::json).orElse(null),
        line,
        queries.history(id, HISTORY_ROWS),
        Page.byId(queries.commands(id, Long.MAX_VALUE, size + 1), size, TicketCommand::id),
        Page.byId(queries.audit(id, Long.MAX_VALUE, size + 1), size, TicketAudit::id));
  }

  @Operation(summary = "Open differences by class: count, amount, oldest age; tickets; last runs")
  @GetMapping("/summary")
  public ReconSummary summary(HttpServletRequest request) {
    OpsRequests.person(request);
    Instant now = clock.instant();
    List<ReconSummary.ClassRow> classes =
        queries.openByClass().stream().map(o -> row(o, now)).toList();
    long oldest = queries.oldestOpen().map(at -> age(at, now)).orElse(0L);
    return new ReconSummary(
        classes,
        queries.waitingForPerson(),
        oldest,
        runs.latestPerAccount().stream().map(RunView::of).toList());
  }

  private Page<DifferenceView> page(DifferenceFilter filter, String cursor, Integer limit) {
    int size = PageCursor.size(limit);
    long before = PageCursor.before(cursor);
    Instant now = clock.instant();
    List<RecordedDifference> rows = queries.differences(filter, before, size + 1);
    return Page.byId(rows, size, RecordedDifference::id).map(d -> DifferenceView.of(d, now));
  }

  private static ReconSummary.ClassRow row(OpenDifferences o, Instant now) {
    return new ReconSummary.ClassRow(
        o.kind().name(),
        o.currency(),
        o.count(),
        o.amountMinor(),
        o.oldestFoundAt(),
        o.oldestFoundAt() == null ? 0 : age(o.oldestFoundAt(), now));
  }

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (JacksonException e) {
      // Recorded by the store as JSON; shown as text should it ever not parse.
      return JSON.getNodeFactory().textNode(text);
    }
  }

  static long age(Instant at, Instant now) {
    return Math.max(0, Duration.between(at, now).toSeconds());
  }

  /** An account filter: absent, or a reference of at most 128 characters. */
  static String account(String account) {
    if (account == null || account.isEmpty()) {
      return null;
    }
    if (account.length() > 128 || account.isBlank()) {
      throw ApiException.badRequest("invalid_parameter", "account must be 1 to 128 characters");
    }
    return account;
  }
}
