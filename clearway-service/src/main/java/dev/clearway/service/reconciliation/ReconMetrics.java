package dev.clearway.service.reconciliation;

import dev.clearway.core.reconciliation.domain.DifferenceClass;
import dev.clearway.core.reconciliation.domain.RepairKind;
import dev.clearway.core.reconciliation.domain.RepairOutcome;
import dev.clearway.core.reconciliation.domain.TicketCommand;
import dev.clearway.core.reconciliation.port.ReconciliationEvents;
import dev.clearway.store.reconciliation.JdbcReconQueries;
import dev.clearway.store.reconciliation.OpenDifferences;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciliation as Micrometer meters. Gauges read from the database every few seconds (scrapes
 * read the cached values): open differences per class ({@code clearway.recon.differences{class}}),
 * their amount in minor units per class and currency ({@code
 * clearway.recon.differences.amount{class,currency}}), the age of the oldest open difference
 * ({@code clearway.recon.oldest_unresolved.age.seconds}) and the tickets waiting for a person
 * ({@code clearway.recon.tickets}). Counters: repairs by kind and result ({@code
 * clearway.recon.repairs{kind,result}}), statement imports that failed ({@code
 * clearway.recon.import.failures{reason}}: refused or download), differences found and tickets
 * opened by class ({@code clearway.recon.differences.found{class}}, {@code
 * clearway.recon.tickets.opened{class}}), runs by outcome ({@code clearway.recon.runs{outcome}})
 * and ticket decisions ({@code clearway.recon.tickets.decided{state}}).
 */
public final class ReconMetrics implements ReconciliationEvents, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ReconMetrics.class);

  private final JdbcReconQueries queries;
  private final MeterRegistry registry;
  private final Clock clock;
  private final Map<DifferenceClass, AtomicLong> counts = new EnumMap<>(DifferenceClass.class);
  private final MultiGauge amounts;
  private final AtomicLong oldestAge = new AtomicLong();
  private final AtomicLong tickets = new AtomicLong();
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "clearway-recon-gauges");
            t.setDaemon(true);
            return t;
          });

  public ReconMetrics(
      JdbcReconQueries queries, MeterRegistry registry, Clock clock, Duration period) {
    this.queries = queries;
    this.registry = registry;
    this.clock = clock;
    for (DifferenceClass c : DifferenceClass.values()) {
      AtomicLong n = new AtomicLong();
      counts.put(c, n);
      Gauge.builder("clearway.recon.differences", n, AtomicLong::get)
          .description("Open (not RESOLVED) reconciliation differences per class")
          .tag("class", c.name())
          .register(registry);
    }
    this.amounts =
        MultiGauge.builder("clearway.recon.differences.amount")
            .description("Amount in minor units of the open differences per class and currency")
            .register(registry);
    Gauge.builder("clearway.recon.oldest_unresolved.age.seconds", oldestAge, AtomicLong::get)
        .description("Age of the oldest open reconciliation difference")
        .register(registry);
    Gauge.builder("clearway.recon.tickets", tickets, AtomicLong::get)
        .description("Differences waiting for a person (NEEDS_PERSON)")
        .register(registry);
    timer.scheduleWithFixedDelay(this::refresh, 0, period.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Reads the open differences again; a failed read keeps the previous values. */
  public void refresh() {
    List<OpenDifferences> open;
    Optional<Instant> oldest;
    long waiting;
    try {
      open = queries.openByClass();
      oldest = queries.oldestOpen();
      waiting = queries.waitingForPerson();
    } catch (RuntimeException e) {
      log.warn("reconciliation gauges not refreshed: {}", e.getClass().getSimpleName());
      return;
    }
    Map<DifferenceClass, Long> byClass = new EnumMap<>(DifferenceClass.class);
    List<MultiGauge.Row<?>> rows = new ArrayList<>();
    for (OpenDifferences o : open) {
      byClass.merge(o.kind(), o.count(), Long::sum);
      rows.add(
          MultiGauge.Row.of(
              Tags.of("class", o.kind().name(), "currency", String.valueOf(o.currency())),
              o.amountMinor()));
    }
    counts.forEach((c, v) -> v.set(byClass.getOrDefault(c, 0L)));
    amounts.register(rows, true);
    Instant now = clock.instant();
    oldestAge.set(oldest.map(at -> Math.max(0, Duration.between(at, now).toSeconds())).orElse(0L));
    tickets.set(waiting);
  }

  @Override
  public void differenceFound(DifferenceClass kind, long amountMinor) {
    registry.counter("clearway.recon.differences.found", "class", kind.name()).increment();
  }

  @Override
  public void repaired(RepairKind kind, RepairOutcome.Result result) {
    registry
        .counter("clearway.recon.repairs", "kind", kind.name(), "result", result.name())
        .increment();
  }

  @Override
  public void ticketOpened(DifferenceClass kind) {
    registry.counter("clearway.recon.tickets.opened", "class", kind.name()).increment();
  }

  @Override
  public void importRefused(String account, String reason) {
    importFailed("refused");
  }

  @Override
  public void runEnded(String account, String outcome) {
    registry.counter("clearway.recon.runs", "outcome", outcome).increment();
  }

  /**
   * A statement that could not be imported: {@code refused} (hash, malformed) or {@code download}.
   */
  public void importFailed(String reason) {
    registry.counter("clearway.recon.import.failures", "reason", reason).increment();
  }

  /** A ticket command was decided (its state after the decision). */
  public void ticketDecided(TicketCommand command) {
    registry.counter("clearway.recon.tickets.decided", "state", command.state()).increment();
    timer.execute(this::refresh);
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
