package dev.clearway.core.engine;

import dev.clearway.core.port.FlowStore.Lease;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Mints lease tokens unique per claim: two threads of one process never share a token, so a lease
 * excludes them from each other as it excludes two processes.
 */
public final class LeaseTokens {
  private final String instanceId;
  private final Clock clock;
  private final EngineConfig config;
  private final AtomicLong counter = new AtomicLong();

  public LeaseTokens(String instanceId, Clock clock, EngineConfig config) {
    this.instanceId = instanceId;
    this.clock = clock;
    this.config = config;
  }

  public Lease next() {
    return new Lease(
        instanceId + "/" + counter.incrementAndGet(), clock.instant().plus(config.lease()));
  }
}
