package dev.clearway.psp.stripe;

import dev.clearway.core.statement.Statement;
import dev.clearway.core.statement.StatementFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One account's daily balance report through Stripe's reporting API: a report run of the UTC day
 * ({@code POST /v1/reporting/report_runs}), awaited until it succeeds ({@code GET
 * /v1/reporting/report_runs/{id}}), then its result file fetched with the secret key. Stripe
 * announces no hash for the file. A run that fails, or does not succeed within the configured wait,
 * fails the download: the caller retries it later.
 */
final class StripeStatements {
  static final String REPORT_TYPE = "balance_change_from_activity.itemized.1";
  private static final String RUNS = "/v1/reporting/report_runs";
  private static final Duration POLL = Duration.ofMillis(100);

  private final StripeHttp http;
  private final Duration wait;
  private final Clock clock = Clock.systemUTC();

  StripeStatements(StripeHttp http, Duration wait) {
    this.http = http;
    this.wait = wait;
  }

  Statement download(LocalDate day) {
    long start = day.atStartOfDay(ZoneOffset.UTC).toEpochSecond();
    Map<String, String> form = new LinkedHashMap<>();
    form.put("report_type", REPORT_TYPE);
    form.put("parameters[interval_start]", Long.toString(start));
    form.put("parameters[interval_end]", Long.toString(start + 86_400));
    StripeReply run = require(http.post(RUNS, form, null), "report run creation");
    String id = StripeFields.text(run.json(), "id");
    if (id == null || !id.matches("[A-Za-z0-9_]{1,64}")) {
      throw failure("the report run has no usable id");
    }
    Instant deadline = clock.instant().plus(wait);
    while (true) {
      String status = StripeFields.text(run.json(), "status");
      if ("succeeded".equals(status)) {
        String url = StripeFields.text(run.json().path("result"), "url");
        if (url == null) {
          throw failure("the succeeded report run names no file");
        }
        return Statement.unhashed(StatementFormat.STRIPE_BALANCE, http.download(url));
      }
      if (!"pending".equals(status)) {
        throw failure("the report run is " + status);
      }
      if (!clock.instant().isBefore(deadline)) {
        throw failure("the report run is still pending after " + wait);
      }
      pause();
      run = require(http.get(RUNS + "/" + id, Map.of()), "report run retrieval");
    }
  }

  private static StripeReply require(StripeReply reply, String what) {
    if (!reply.answered()) {
      throw failure(what + " failed: " + reply.transportError());
    }
    if (reply.status() != 200 || reply.json() == null) {
      String code = reply.errorCode();
      throw failure(what + " answered " + reply.status() + (code == null ? "" : " " + code));
    }
    return reply;
  }

  private static void pause() {
    try {
      Thread.sleep(POLL.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failure("interrupted while waiting for the report run");
    }
  }

  private static UncheckedIOException failure(String reason) {
    return new UncheckedIOException(new IOException(reason));
  }
}
