package dev.clearway.service.reconciliation;

import dev.clearway.service.api.ApiException;
import dev.clearway.service.api.Refusal;
import io.swagger.v3.oas.annotations.Operation;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Reconciliation on demand: {@code POST /ops/reconciliation/runs {account, date}} downloads and
 * imports the account's statement of that day when it has a source, reconciles the day and runs the
 * repair pass once, and answers what each step did. An operator or an approver may ask; a day in
 * the future is 400 {@code invalid_date}.
 */
@RestController
@RequestMapping(path = "/ops/reconciliation", produces = MediaType.APPLICATION_JSON_VALUE)
public class RunController {
  private final ReconRunner runner;
  private final Clock clock;

  public RunController(ReconRunner runner, ObjectProvider<Clock> clock) {
    this.runner = runner;
    this.clock = clock.getIfAvailable(Clock::systemUTC);
  }

  @Operation(summary = "Import (when downloadable), reconcile and repair one account-day now")
  @Refusal(status = 400, code = "missing_body", message = "a JSON body is required")
  @Refusal(status = 400, code = "missing_field", message = "account is required")
  @Refusal(status = 400, code = "invalid_date", message = "date must be YYYY-MM-DD")
  @PostMapping(path = "/runs", consumes = MediaType.APPLICATION_JSON_VALUE)
  public RunOutcome run(
      @RequestBody(required = false) RunRequest body, HttpServletRequest request) {
    OpsRequests.person(request);
    if (body == null) {
      throw ApiException.badRequest("missing_body", "a JSON body is required");
    }
    String account = OpsRequests.text(body.account(), "account", 128);
    LocalDate day = day(OpsRequests.text(body.date(), "date", 10));
    if (day.isAfter(LocalDate.now(clock).plusDays(1))) {
      throw ApiException.badRequest("invalid_date", "date is in the future");
    }
    return runner.run(account, day);
  }

  private static LocalDate day(String text) {
    try {
      return LocalDate.parse(text, DateTimeFormatter.ISO_LOCAL_DATE);
    } catch (DateTimeException e) {
      throw ApiException.badRequest("invalid_date", "date must be YYYY-MM-DD");
    }
  }
}
