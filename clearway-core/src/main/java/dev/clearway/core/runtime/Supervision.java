package dev.clearway.core.runtime;

import dev.clearway.core.flow.port.OverloadEvents;
import dev.clearway.core.flow.port.WorkerFailures;
import java.util.Objects;

/**
 * Where the background machinery of one engine reports: failures its loops survive, and work its
 * bounded queues refuse.
 */
public record Supervision(WorkerFailures failures, OverloadEvents overload) {

  public Supervision {
    Objects.requireNonNull(failures, "failures");
    Objects.requireNonNull(overload, "overload");
  }

  /** Failures to {@link System.Logger}; refusals not counted. */
  public static Supervision defaults() {
    return new Supervision(WorkerFailures.systemLogger(), OverloadEvents.NONE);
  }
}
