package dev.clearway.core.runtime;

import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.port.FlowStore.Lease;
import java.time.Clock;

/**
 * Mints leases whose tokens are unique per claim: two threads of one process never share a token,
 * and neither do two processes, even when both are configured with the same instance id (every
 * token carries a random part, see {@link TokenMint}). A lease therefore fences every other writer.
 */
public final class LeaseTokens {
  private final TokenMint tokens;
  private final Clock clock;
  private final EngineConfig config;

  public LeaseTokens(String instanceId, Clock clock, EngineConfig config) {
    this.tokens = new TokenMint(instanceId);
    this.clock = clock;
    this.config = config;
  }

  public Lease next() {
    return new Lease(tokens.next(), clock.instant().plus(config.lease()));
  }
}
