package dev.clearway.service.metrics;

import dev.clearway.service.console.TimeSeriesController;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * Meters that the alert rules ({@code deploy/prometheus/clearway-alerts.yml}) and the dashboard
 * ({@code deploy/grafana/clearway.json}) read and that no other bean registers at start, and the
 * console's last-hour series.
 */
@Configuration(proxyBeanMethods = false)
@Import(TimeSeriesController.class)
public class MetricsConfiguration {

  /** Read from the database every {@code clearway.metrics.refresh} (default 5 s). */
  @Bean(destroyMethod = "close")
  CompensationGauges compensationGauges(
      DataSource dataSource,
      MeterRegistry registry,
      @Value("${clearway.metrics.refresh:5s}") Duration refresh) {
    return new CompensationGauges(dataSource, registry, refresh.toMillis());
  }

  /**
   * How late wake-ups are consumed after their due time ({@code clearway.broker.wakeup.lag}),
   * registered with the service: the broker transport records into this same timer when a broker is
   * configured; without one it stays at zero, which is the truth (no broker, no lag).
   */
  @Bean
  Timer brokerWakeupLag(MeterRegistry registry) {
    return Timer.builder("clearway.broker.wakeup.lag")
        .description("How late wake-ups were consumed after their due time")
        .register(registry);
  }

  /** The console's last hour, one point per {@code clearway.console.series-step} (1 minute). */
  @Bean(destroyMethod = "close")
  ConsoleTimeSeries consoleTimeSeries(
      MeterRegistry registry,
      ObjectProvider<Clock> clock,
      @Value("${clearway.console.series-step:60s}") Duration step) {
    return new ConsoleTimeSeries(registry, clock.getIfAvailable(Clock::systemUTC), step);
  }
}
