package dev.clearway.sim.psp.stripe;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Stripe's reporting API for the balance report of one simulated account: {@code POST
 * /v1/reporting/report_runs} with {@code report_type} and {@code parameters[interval_start]} /
 * {@code parameters[interval_end]} (unix seconds) creates a run that is {@code pending}, then
 * {@code succeeded} after the async delay with a {@code result} file object whose {@code url} is
 * fetched with the API key ({@code GET /v1/files/{id}/contents}). The report is taken when the run
 * is created, so its file never changes afterwards.
 */
final class StripeReportRuns {
  /** The one report type served: the itemized balance transactions of an interval. */
  static final String REPORT_TYPE = "balance_change_from_activity.itemized.1";

  private static final class Run {
    final String id;
    final long intervalStart;
    final long intervalEnd;
    final long created;
    final byte[] csv;
    final String fileId;
    volatile String status = "pending";

    Run(String id, long start, long end, long created, byte[] csv, String fileId) {
      this.id = id;
      this.intervalStart = start;
      this.intervalEnd = end;
      this.created = created;
      this.csv = csv;
      this.fileId = fileId;
    }
  }

  private final StripeBook book;
  private final Clock clock;
  private final ScheduledExecutorService background;
  private final Duration delay;
  private final AtomicLong ids = new AtomicLong();
  private final Map<String, Run> runs = new ConcurrentHashMap<>();
  private final Map<String, Run> files = new ConcurrentHashMap<>();

  StripeReportRuns(
      StripeBook book, Clock clock, ScheduledExecutorService background, Duration delay) {
    this.book = book;
    this.clock = clock;
    this.background = background;
    this.delay = delay;
  }

  /** Creates a run; {@code fileBase} is the root the result's URL is built on. */
  SimResponse create(FormBody form, String fileBase) {
    if (!REPORT_TYPE.equals(form.get("report_type"))) {
      return SimResponse.refused(400, "invalid_request_error", "report_type_invalid");
    }
    Long start = unix(form.get("parameters[interval_start]"));
    Long end = unix(form.get("parameters[interval_end]"));
    if (start == null || end == null || start >= end) {
      return SimResponse.refused(400, "invalid_request_error", "parameter_invalid_integer");
    }
    long n = ids.incrementAndGet();
    Run run =
        new Run(
            "frr_sim" + Long.toString(n, 36),
            start,
            end,
            clock.millis() / 1000,
            book.balanceReport(start, end),
            "file_sim" + Long.toString(n, 36));
    runs.put(run.id, run);
    files.put(run.fileId, run);
    try {
      background.schedule(() -> run.status = "succeeded", delay.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException closing) {
      // The account is closing: the run stays pending.
    }
    return SimResponse.ok(json(run, fileBase));
  }

  SimResponse retrieve(String id, String fileBase) {
    Run run = runs.get(id);
    return run == null ? StripeBook.notFound() : SimResponse.ok(json(run, fileBase));
  }

  /** The contents of a succeeded run's file, or null when there is no such file (yet). */
  byte[] contents(String fileId) {
    Run run = files.get(fileId);
    return run == null || !"succeeded".equals(run.status) ? null : run.csv;
  }

  private static Map<String, Object> json(Run run, String fileBase) {
    Map<String, Object> parameters = new LinkedHashMap<>();
    parameters.put("interval_start", run.intervalStart);
    parameters.put("interval_end", run.intervalEnd);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("id", run.id);
    out.put("object", "reporting.report_run");
    out.put("created", run.created);
    out.put("livemode", false);
    out.put("parameters", parameters);
    out.put("report_type", REPORT_TYPE);
    out.put("status", run.status);
    out.put("result", "succeeded".equals(run.status) ? file(run, fileBase) : null);
    return out;
  }

  private static Map<String, Object> file(Run run, String fileBase) {
    Map<String, Object> file = new LinkedHashMap<>();
    file.put("id", run.fileId);
    file.put("object", "file");
    file.put("created", run.created);
    file.put("filename", run.fileId + ".csv");
    file.put("purpose", "finance_report_run");
    file.put("size", run.csv.length);
    file.put("type", "csv");
    file.put("url", fileBase + "/v1/files/" + run.fileId + "/contents");
    return file;
  }

  private static Long unix(String s) {
    if (s == null || !s.matches("\\d{1,12}")) {
      return null;
    }
    return Long.parseLong(s);
  }
}
