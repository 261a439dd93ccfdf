package dev.clearway.boot.metrics;

import dev.clearway.core.flow.port.WorkerFailures;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Failures the background loops survive: logged at WARN with the cause (its class, message and
 * stack; exceptions of the engine carry no keys or account numbers) and counted in {@code
 * clearway.worker.failures{loop}}.
 */
public final class MicrometerWorkerFailures implements WorkerFailures {
  private static final Logger log = LoggerFactory.getLogger("dev.clearway.worker");

  private final MeterRegistry registry;

  public MicrometerWorkerFailures(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void failed(String loop, Throwable cause) {
    registry
        .counter("clearway.worker.failures", "loop", loop == null ? "unknown" : loop)
        .increment();
    log.warn("background loop {} failed and goes on", loop, cause);
  }
}
