package dev.clearway.service.console;

import dev.clearway.service.metrics.ConsoleTimeSeries;
import dev.clearway.service.metrics.MinuteSample;
import io.swagger.v3.oas.annotations.Operation;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The console's last hour ({@code GET /ops/metrics/timeseries}): per step, payments ended by
 * outcome, the UNKNOWN share of external answers and the oldest open flow's age; the last point is
 * the running step ({@code partial: true}). Operator and approver keys only (ApiKeyFilter guards
 * {@code /ops/}).
 */
@RestController
@RequestMapping(path = "/ops/metrics", produces = MediaType.APPLICATION_JSON_VALUE)
public class TimeSeriesController {
  private final ConsoleTimeSeries series;

  public TimeSeriesController(ConsoleTimeSeries series) {
    this.series = series;
  }

  @Operation(
      summary = "The last hour per step: payments ended by outcome, UNKNOWN share, oldest open age")
  @GetMapping("/timeseries")
  public Map<String, Object> timeseries() {
    List<MinuteSample> points = series.lastHour();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("stepSeconds", series.step().toSeconds());
    out.put("points", points);
    return out;
  }
}
