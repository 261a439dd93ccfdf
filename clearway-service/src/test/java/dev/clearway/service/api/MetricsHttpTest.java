package dev.clearway.service.api;

import static dev.clearway.service.api.RunningApi.APPROVER_KEY;
import static dev.clearway.service.api.RunningApi.MERCHANT_KEY;
import static dev.clearway.service.api.RunningApi.OPERATOR_KEY;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.boot.metrics.CachedReading;
import dev.clearway.service.api.RunningApi.Answer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code /actuator/prometheus} needs an operator or metrics key ({@code CLEARWAY_METRICS_KEYS});
 * health stays open; a metrics key opens nothing else. Scrapes read cached gauges: however often
 * Prometheus scrapes, the database is asked at most once per refresh period.
 */
class MetricsHttpTest {
  private static final String METRICS_KEY = "prom_scrape_4e7b1d9c2a6f";

  private static final StatementCounter onRequestThreads = new StatementCounter("http-nio");
  private static RunningApi api;

  @BeforeAll
  static void start() {
    api = RunningApi.start(onRequestThreads::wrap, "clearway.keys.metrics=" + METRICS_KEY);
  }

  @AfterAll
  static void stop() {
    if (api != null) {
      api.close();
    }
  }

  private static Answer scrape(String key) {
    RunningApi.Call call = api.call("GET", "/actuator/prometheus");
    return (key == null ? call : call.bearer(key)).send();
  }

  @Test
  void prometheusNeedsAnOperatorOrAMetricsKey() {
    Answer none = scrape(null);
    assertThat(none.status()).as("%s", none).isEqualTo(401);
    assertThat(none.code()).isEqualTo("unauthorized");
    assertThat(none.body()).doesNotContain("# TYPE");
    assertThat(scrape("not-a-key-at-all-0000").status()).isEqualTo(401);
    assertThat(scrape(MERCHANT_KEY).status()).isEqualTo(403);
    assertThat(scrape(APPROVER_KEY).status()).isEqualTo(403);

    for (String key : new String[] {OPERATOR_KEY, METRICS_KEY}) {
      Answer ok = scrape(key);
      assertThat(ok.status()).as("%s", ok).isEqualTo(200);
      assertThat(ok.body()).contains("# TYPE").contains("clearway_outbox_pending");
    }

    // Health stays open; a metrics key opens nothing but the scrape.
    assertThat(api.call("GET", "/actuator/health").send().status()).isEqualTo(200);
    assertThat(api.call("GET", "/ops/review/flows").bearer(METRICS_KEY).send().status())
        .isEqualTo(403);
    assertThat(api.call("GET", "/v1/payment-flows/1").bearer(METRICS_KEY).send().status())
        .isEqualTo(403);
  }

  @Test
  void requestsAreTimedWithoutALongTaskTimerPerRequest() {
    assertThat(scrape(METRICS_KEY).status()).isEqualTo(200);

    String body = scrape(METRICS_KEY).body();

    assertThat(body).contains("http_server_requests_seconds_count{");
    assertThat(body).doesNotContain("http_server_requests_active");
  }

  @Test
  void manyScrapesQueryTheDatabaseAtMostOncePerRefreshPeriod() {
    assertThat(scrape(METRICS_KEY).status()).isEqualTo(200);
    onRequestThreads.reset();

    int scrapes = 40;
    long started = System.nanoTime();
    for (int i = 0; i < scrapes; i++) {
      Answer a = scrape(METRICS_KEY);
      assertThat(a.status()).isEqualTo(200);
      assertThat(a.body()).contains("clearway_outbox_pending");
    }
    long elapsedMillis = (System.nanoTime() - started) / 1_000_000;

    // Two gauges over the database are read on the request thread (the outbox backlog and the
    // age of its oldest event); the flow and compensation gauges refresh on their own timers.
    // Each reading serves every scrape of its period.
    long periods = 1 + elapsedMillis / CachedReading.DEFAULT_PERIOD.toMillis();
    assertThat(onRequestThreads.count())
        .as("statements run by %d scrapes in %d ms", scrapes, elapsedMillis)
        .isLessThanOrEqualTo(2 * (int) periods);
  }
}
