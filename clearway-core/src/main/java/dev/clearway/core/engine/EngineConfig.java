package dev.clearway.core.engine;

import java.time.Duration;

/**
 * Timing of the engine. Production uses seconds to hours; the chaos run compresses the same
 * parameters to milliseconds and runs the same code.
 *
 * @param lease how long a worker holds a flow; must exceed the slowest external call
 * @param backoffBase first retry delay
 * @param backoffCap largest ordinary retry delay
 * @param retryBudget reschedules per stage before the flow is escalated to manual review
 * @param escalatedInterval retry interval after escalation (lower frequency, never dropped)
 * @param deadlineGrace margin after the business deadline before "not done" counts as final
 * @param scanBatch rows claimed per scanner page
 * @param scanInterval pause between scanner rounds
 */
public record EngineConfig(
    Duration lease,
    Duration backoffBase,
    Duration backoffCap,
    int retryBudget,
    Duration escalatedInterval,
    Duration deadlineGrace,
    int scanBatch,
    Duration scanInterval) {

  public static EngineConfig production() {
    return new EngineConfig(
        Duration.ofSeconds(30),
        Duration.ofSeconds(2),
        Duration.ofMinutes(10),
        12,
        Duration.ofMinutes(30),
        Duration.ofSeconds(5),
        100,
        Duration.ofSeconds(5));
  }

  /** Milliseconds instead of minutes: for chaos runs and tests. */
  public static EngineConfig compressed() {
    return new EngineConfig(
        Duration.ofMillis(2_000),
        Duration.ofMillis(20),
        Duration.ofMillis(800),
        14,
        Duration.ofMillis(2_000),
        Duration.ofMillis(100),
        200,
        Duration.ofMillis(100));
  }
}
