package dev.clearway.service.console;

import dev.clearway.psp.health.CircuitBreakerHealth;
import dev.clearway.service.api.ApiException;
import dev.clearway.service.api.Page;
import dev.clearway.service.api.PageCursor;
import dev.clearway.service.api.Refusal;
import dev.clearway.store.channel.JdbcChannelOps;
import dev.clearway.store.channel.JdbcChannelOps.AccountFigures;
import dev.clearway.store.channel.JdbcChannelQueues;
import dev.clearway.store.channel.JdbcOrderTimeline;
import dev.clearway.store.channel.JdbcOrderTimeline.EvidenceRow;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;
import io.swagger.v3.oas.annotations.Operation;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The console's "Channels" panel: what the channel layer is doing at 3 a.m. Per channel account the
 * attempts and the share of UNKNOWN answers of the last hour, the recovery backlog and its oldest
 * age, the circuit; failovers, business retries and compensations; the open or MANUAL recovery
 * tasks; one order's attempts and evidence. Every list is a page ({@code {items, nextCursor}}, at
 * most 100 rows) and every row of a payment names its merchant. Read-only; operator and approver
 * keys only (ApiKeyFilter guards {@code /ops/}).
 */
@RestController
@RequestMapping(path = "/ops/console/channels", produces = MediaType.APPLICATION_JSON_VALUE)
public class ChannelConsoleController {
  private static final Pattern TRADE_ORDER_NO = Pattern.compile("[A-Za-z0-9_]{1,64}");
  private final JdbcChannelOps ops;
  private final JdbcChannelQueues queues;
  private final JdbcOrderTimeline orders;
  private final MeterRegistry meters;
  private final ObjectProvider<CircuitBreakerHealth> health;
  private final Clock clock;

  public ChannelConsoleController(
      DataSource dataSource,
      MeterRegistry meters,
      ObjectProvider<CircuitBreakerHealth> health,
      ObjectProvider<Clock> clock) {
    this.ops = new JdbcChannelOps(dataSource);
    this.queues = new JdbcChannelQueues(dataSource);
    this.orders = new JdbcOrderTimeline(dataSource);
    this.meters = meters;
    this.health = health;
    this.clock = clock.getIfAvailable(Clock::systemUTC);
  }

  /** A channel account's figures with the state of its circuit, as far as this process knows. */
  public record AccountView(
      long id,
      String channel,
      String accountRef,
      String failureDomain,
      boolean enabled,
      Map<String, Long> attemptsByStatus,
      long answers,
      long unknownAnswers,
      Double unknownShare,
      long openTasks,
      Long oldestOpenTaskAgeSeconds,
      long manualTasks,
      String circuit,
      String circuitNote) {}

  /**
   * Compensations of attempts charged although recorded as failed: counts by status and a page of
   * the MANUAL ones (newest first).
   */
  public record Compensations(
      Map<String, Long> byStatus, Page<JdbcChannelQueues.ManualCompensation> manual) {}

  /** The panel's figures. {@code failoverDenied} and {@code multipleSuccess} count since start. */
  public record ChannelsView(
      Instant asOf,
      long windowSeconds,
      List<AccountView> accounts,
      JdbcChannelOps.Totals totals,
      Compensations compensations,
      Map<String, Double> failoverDenied,
      double multipleSuccess) {}

  @Operation(
      summary =
          "Channel accounts (attempts and UNKNOWN share of the last hour, recovery backlog,"
              + " circuit), totals and compensations; cursor and limit page the MANUAL"
              + " compensations")
  @GetMapping
  public ChannelsView channels(
      @RequestParam(name = "cursor", required = false) String cursor,
      @RequestParam(name = "limit", required = false) Integer limit) {
    int size = PageCursor.size(limit);
    long before = PageCursor.before(cursor);
    Instant now = clock.instant();
    List<AccountView> accounts = ops.accounts(now).stream().map(this::view).toList();
    Page<JdbcChannelQueues.ManualCompensation> manual =
        Page.byId(
            queues.manualCompensations(before, size + 1),
            size,
            JdbcChannelQueues.ManualCompensation::attemptId);
    return new ChannelsView(
        now,
        JdbcChannelOps.WINDOW.toSeconds(),
        accounts,
        ops.totals(now),
        new Compensations(ops.compensationsByStatus(), manual),
        failoverDenied(),
        Search.in(meters).name("clearway.channel.multiple.success").counters().stream()
            .mapToDouble(Counter::count)
            .sum());
  }

  @Operation(
      summary =
          "Open (READY, LEASED) and MANUAL recovery tasks, the one due longest ago first, with"
              + " their merchant")
  @GetMapping("/tasks")
  public Page<JdbcChannelQueues.TaskRow> tasks(
      @RequestParam(name = "cursor", required = false) String cursor,
      @RequestParam(name = "limit", required = false) Integer limit) {
    int size = PageCursor.size(limit);
    PageCursor.TimeId after = PageCursor.timeId(cursor);
    List<JdbcChannelQueues.TaskRow> rows =
        queues.tasks(
            after == null ? null : new JdbcChannelQueues.TaskKey(after.at(), after.id()),
            size + 1,
            clock.instant());
    return Page.of(rows, size, t -> PageCursor.after(t.dueAt(), Long.toString(t.taskId()), true));
  }

  @Operation(
      summary =
          "A payment order's attempts across PSPs, newest first, each with its newest provider"
              + " evidence")
  @Refusal(status = 404, code = "order_not_found", message = "no payment order with that number")
  @Refusal(
      status = 422,
      code = "invalid_trade_order_no",
      message = "a trade order number is 1 to 64 letters, digits or underscores")
  @GetMapping("/orders/{tradeOrderNo}")
  public OrderView order(
      @PathVariable("tradeOrderNo") String tradeOrderNo,
      @RequestParam(name = "cursor", required = false) String cursor,
      @RequestParam(name = "limit", required = false) Integer limit) {
    if (!TRADE_ORDER_NO.matcher(tradeOrderNo).matches()) {
      throw new ApiException(
          HttpStatus.UNPROCESSABLE_CONTENT,
          "invalid_trade_order_no",
          "a trade order number is 1 to 64 letters, digits or underscores");
    }
    int size = PageCursor.size(limit);
    int beforeSeq = (int) Math.min(Integer.MAX_VALUE, PageCursor.before(cursor));
    int evidenceSize = PageCursor.MAX_SIZE;
    return orders
        .order(tradeOrderNo, beforeSeq, size + 1, evidenceSize + 1)
        .map(o -> OrderView.of(o, size, evidenceSize))
        .orElseThrow(
            () ->
                new ApiException(
                    HttpStatus.NOT_FOUND, "order_not_found", "no payment order with that number"));
  }

  @Operation(summary = "An attempt's provider evidence, newest first")
  @Refusal(status = 404, code = "attempt_not_found", message = "no such payment attempt")
  @GetMapping("/attempts/{attemptId}/evidence")
  public Page<EvidenceRow> evidence(
      @PathVariable("attemptId") long attemptId,
      @RequestParam(name = "cursor", required = false) String cursor,
      @RequestParam(name = "limit", required = false) Integer limit) {
    int size = PageCursor.size(limit);
    long before = PageCursor.before(cursor);
    if (!orders.attemptExists(attemptId)) {
      throw new ApiException(HttpStatus.NOT_FOUND, "attempt_not_found", "no such payment attempt");
    }
    return Page.byId(orders.evidence(attemptId, before, size + 1), size, EvidenceRow::id);
  }

  private AccountView view(AccountFigures a) {
    String circuit = circuit(a.id());
    return new AccountView(
        a.id(),
        a.channel(),
        a.accountRef(),
        a.failureDomain(),
        a.enabled(),
        a.attemptsByStatus(),
        a.answers(),
        a.unknownAnswers(),
        a.unknownShare(),
        a.openTasks(),
        a.oldestOpenTaskAgeSeconds(),
        a.manualTasks(),
        circuit,
        note(a.enabled(), circuit));
  }

  /**
   * The breaker's state: from the {@code clearway.channel.circuit.open} gauge when this process
   * exports one for the account (serve --channels), else from the embedded layer's breakers; null
   * when this process routes no creates to the account.
   */
  private String circuit(long accountId) {
    Gauge gauge =
        Search.in(meters)
            .name("clearway.channel.circuit.open")
            .tag("account", Long.toString(accountId))
            .gauge();
    if (gauge != null) {
      return gauge.value() >= 1 ? "OPEN" : "CLOSED";
    }
    CircuitBreakerHealth h = health.getIfAvailable();
    return h == null ? null : h.state(accountId);
  }

  private static String note(boolean enabled, String circuit) {
    if (!enabled) {
      return "disabled: no new creates";
    }
    if (circuit == null) {
      return "no circuit in this process";
    }
    return switch (circuit) {
      case "OPEN", "FORCED_OPEN" ->
          "open: no new creates; queries, callbacks and refunds keep their budget";
      case "HALF_OPEN" -> "half open: probing with a few creates";
      case "CLOSED" -> "closed: routing";
      default -> circuit.toLowerCase(java.util.Locale.ROOT);
    };
  }

  private Map<String, Double> failoverDenied() {
    Map<String, Double> out = new TreeMap<>();
    for (Counter c : Search.in(meters).name("clearway.channel.failover.denied").counters()) {
      out.merge(c.getId().getTag("reason"), c.count(), Double::sum);
    }
    return out;
  }
}
