package dev.clearway.service.console;

import dev.clearway.service.api.MerchantFilter;
import dev.clearway.service.api.Page;
import dev.clearway.service.api.PageCursor;
import dev.clearway.store.JdbcOpsQueries;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;
import io.swagger.v3.oas.annotations.Operation;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The data behind the ops console ({@code /console}): figures from the meters and the database, the
 * ABNORMAL refunds and the transitions of every merchant, each list a page ({@code {items,
 * nextCursor}}, newest first, at most 100 rows). Operator and approver keys only (ApiKeyFilter
 * guards {@code /ops/}).
 */
@RestController
@RequestMapping(path = "/ops/console", produces = MediaType.APPLICATION_JSON_VALUE)
public class ConsoleController {
  private final JdbcOpsQueries queries;
  private final MeterRegistry meters;

  public ConsoleController(JdbcOpsQueries queries, MeterRegistry meters) {
    this.queries = queries;
    this.meters = meters;
  }

  @Operation(
      summary = "Figures for the console: flows by status, open flows' age, calls, conflicts")
  @GetMapping("/summary")
  public Map<String, Object> summary() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("flowsByStatus", queries.countByStatus());
    out.put("openByState", gauges("clearway.flows.open", "state"));
    out.put("oldestAgeSecondsByState", gauges("clearway.flows.oldest.age.seconds", "state"));
    out.put("reviewBacklog", gauge("clearway.manual_review.backlog"));
    out.put("refundsByStatus", queries.refundsByStatus());
    out.put("transitions", counters("clearway.transitions", "to"));
    out.put("externalCalls", counters("clearway.external.calls", "kind", "result"));
    out.put("casConflicts", counters("clearway.cas.conflicts", "outcome"));
    out.put("callbacks", counters("clearway.callbacks", "outcome"));
    out.put("scannerHits", total("clearway.scanner.hits"));
    out.put("refundsBlockedByBizSuccess", total("clearway.refunds.blocked_by_biz_success"));
    return out;
  }

  @Operation(
      summary =
          "Refunds whose retry budget is spent (ABNORMAL), newest first, with their merchant:"
              + " a person must look")
  @GetMapping("/abnormal-refunds")
  public Page<JdbcOpsQueries.AbnormalRefund> abnormalRefunds(
      @RequestParam(name = "merchant", required = false) String merchant,
      @RequestParam(name = "cursor", required = false) String cursor,
      @RequestParam(name = "limit", required = false) Integer limit) {
    String only = MerchantFilter.of(merchant);
    int size = PageCursor.size(limit);
    long before = PageCursor.before(cursor);
    List<JdbcOpsQueries.AbnormalRefund> rows =
        only == null
            ? queries.abnormalRefunds(before, size + 1)
            : queries.abnormalRefundsOf(only, before, size + 1);
    return Page.byId(rows, size, JdbcOpsQueries.AbnormalRefund::refundId);
  }

  @Operation(summary = "The transitions of all flows, newest first, with their flow's merchant")
  @GetMapping("/transitions")
  public Page<JdbcOpsQueries.Transition> transitions(
      @RequestParam(name = "cursor", required = false) String cursor,
      @RequestParam(name = "limit", required = false) Integer limit) {
    int size = PageCursor.size(limit);
    long before = PageCursor.before(cursor);
    return Page.byId(queries.transitions(before, size + 1), size, t -> t.entry().id());
  }

  /**
   * Counters summed by the given tags, those still at zero left out: the meters alert rules read
   * are registered at zero when the service starts, and a card lists what happened.
   */
  private Map<String, Double> counters(String name, String... tags) {
    Map<String, Double> out = new TreeMap<>();
    for (Counter c : Search.in(meters).name(name).counters()) {
      if (c.count() == 0) {
        continue;
      }
      StringBuilder key = new StringBuilder();
      for (String tag : tags) {
        key.append(key.length() == 0 ? "" : " ").append(c.getId().getTag(tag));
      }
      out.merge(key.toString(), c.count(), Double::sum);
    }
    return out;
  }

  private Map<String, Double> gauges(String name, String tag) {
    Map<String, Double> out = new TreeMap<>();
    for (Gauge g : Search.in(meters).name(name).gauges()) {
      out.put(g.getId().getTag(tag), g.value());
    }
    return out;
  }

  private double gauge(String name) {
    Gauge g = Search.in(meters).name(name).gauge();
    return g == null ? 0 : g.value();
  }

  private double total(String name) {
    return Search.in(meters).name(name).counters().stream().mapToDouble(Counter::count).sum();
  }
}
