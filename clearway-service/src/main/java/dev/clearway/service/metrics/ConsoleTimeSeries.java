package dev.clearway.service.metrics;

import dev.clearway.core.flow.domain.FlowStatus;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The console's series of the last hour, sampled in the service from its own meters once per step
 * (a minute unless configured otherwise), 60 steps kept in a {@link TimeSeriesRing}: payments that
 * ended per step by outcome ({@code clearway.transitions} into a terminal state), the share of
 * external answers whose result stayed UNKNOWN (the channel layer's {@code
 * clearway.channel.psp.answers} and the wallet calls of {@code clearway.external.calls}), and the
 * oldest unfinished flow's age (the largest {@code clearway.flows.oldest.age.seconds}). The meters
 * are counters of this process: the series starts with the process and is per node.
 */
public final class ConsoleTimeSeries implements AutoCloseable {
  /** Steps kept: an hour of minutes. */
  public static final int STEPS = 60;

  private final MeterRegistry meters;
  private final Clock clock;
  private final Duration step;
  private final TimeSeriesRing ring = new TimeSeriesRing(STEPS);
  private MeterTotals last;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "clearway-console-series");
            t.setDaemon(true);
            return t;
          });

  public ConsoleTimeSeries(MeterRegistry meters, Clock clock, Duration step) {
    this.meters = meters;
    this.clock = clock;
    this.step = step;
    this.last = totals();
    timer.scheduleAtFixedRate(
        this::sample, step.toMillis(), step.toMillis(), TimeUnit.MILLISECONDS);
  }

  public Duration step() {
    return step;
  }

  /** Ends the running step: adds it to the ring and starts the next one. */
  synchronized void sample() {
    MeterTotals now = totals();
    ring.add(now.since(last, clock.instant(), oldestOpenAgeSeconds(), false));
    last = now;
  }

  /** The ended steps, oldest first, then the running one (partial). */
  public synchronized List<MinuteSample> lastHour() {
    List<MinuteSample> out = new ArrayList<>(ring.samples());
    out.add(totals().since(last, clock.instant(), oldestOpenAgeSeconds(), true));
    return out;
  }

  private MeterTotals totals() {
    Map<String, Double> ended = new LinkedHashMap<>();
    for (FlowStatus s : FlowStatus.values()) {
      if (s.isTerminal()) {
        ended.put(
            s.name(), sum(Search.in(meters).name("clearway.transitions").tag("to", s.name())));
      }
    }
    double answers = sum(Search.in(meters).name("clearway.channel.psp.answers"));
    double unknown =
        sum(Search.in(meters).name("clearway.channel.psp.answers").tag("certainty", "UNKNOWN"));
    for (String kind : EngineMetersAtStart.WALLET_CALLS) {
      answers += sum(Search.in(meters).name("clearway.external.calls").tag("kind", kind));
      unknown +=
          sum(
              Search.in(meters)
                  .name("clearway.external.calls")
                  .tag("kind", kind)
                  .tag("result", "UNKNOWN"));
    }
    return new MeterTotals(ended, answers, unknown);
  }

  private static double sum(Search search) {
    return search.counters().stream().mapToDouble(Counter::count).sum();
  }

  private long oldestOpenAgeSeconds() {
    return Math.round(
        Search.in(meters).name("clearway.flows.oldest.age.seconds").gauges().stream()
            .mapToDouble(Gauge::value)
            .filter(v -> !Double.isNaN(v))
            .max()
            .orElse(0));
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
