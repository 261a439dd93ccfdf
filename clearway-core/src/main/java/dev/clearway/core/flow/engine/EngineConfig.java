package dev.clearway.core.flow.engine;

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
 * @param unpaidTimeout how long a payment may stay unpaid (PROCESSING at the wallet, or never sent)
 *     before its order is closed at the wallet and the attempt ends PAY_FAIL
 */
public record EngineConfig(
    Duration lease,
    Duration backoffBase,
    Duration backoffCap,
    int retryBudget,
    Duration escalatedInterval,
    Duration deadlineGrace,
    int scanBatch,
    Duration scanInterval,
    Duration unpaidTimeout) {

  private static final Duration DEFAULT_UNPAID_TIMEOUT = Duration.ofMinutes(15);

  /** The same without an unpaid timeout of its own: unpaid payments close after 15 minutes. */
  public EngineConfig(
      Duration lease,
      Duration backoffBase,
      Duration backoffCap,
      int retryBudget,
      Duration escalatedInterval,
      Duration deadlineGrace,
      int scanBatch,
      Duration scanInterval) {
    this(
        lease,
        backoffBase,
        backoffCap,
        retryBudget,
        escalatedInterval,
        deadlineGrace,
        scanBatch,
        scanInterval,
        DEFAULT_UNPAID_TIMEOUT);
  }

  public EngineConfig withScanBatch(int batch) {
    return new EngineConfig(
        lease,
        backoffBase,
        backoffCap,
        retryBudget,
        escalatedInterval,
        deadlineGrace,
        batch,
        scanInterval,
        unpaidTimeout);
  }

  public EngineConfig withUnpaidTimeout(Duration timeout) {
    return new EngineConfig(
        lease,
        backoffBase,
        backoffCap,
        retryBudget,
        escalatedInterval,
        deadlineGrace,
        scanBatch,
        scanInterval,
        timeout);
  }

  /** The same with another pause between scanner rounds. */
  public EngineConfig withScanInterval(Duration interval) {
    return new EngineConfig(
        lease,
        backoffBase,
        backoffCap,
        retryBudget,
        escalatedInterval,
        deadlineGrace,
        scanBatch,
        interval,
        unpaidTimeout);
  }

  public static EngineConfig production() {
    return new EngineConfig(
        Duration.ofSeconds(30),
        Duration.ofSeconds(2),
        Duration.ofMinutes(10),
        12,
        Duration.ofMinutes(30),
        Duration.ofSeconds(5),
        100,
        Duration.ofSeconds(5),
        DEFAULT_UNPAID_TIMEOUT);
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
        Duration.ofMillis(100),
        Duration.ofSeconds(20));
  }
}
