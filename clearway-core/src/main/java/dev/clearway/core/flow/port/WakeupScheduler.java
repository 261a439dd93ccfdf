package dev.clearway.core.flow.port;

import java.time.Instant;

/**
 * Delayed wake-ups: a hint to advance a flow at a time. Lossy by contract; the scanner is the
 * safety net. A message broker can replace the in-process implementation.
 */
public interface WakeupScheduler {

  void schedule(long flowId, Instant at);

  WakeupScheduler NONE = (flowId, at) -> {};
}
