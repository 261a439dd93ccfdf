package dev.clearway.core.flow.engine;

import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.EngineEvents;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.runtime.LeaseTokens;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * The safety net. Every round starts from id 0 and pages by primary key with a cursor local to the
 * round, so a row that was not yet due last round is found this round. Each page claims its rows
 * (FOR UPDATE SKIP LOCKED, lease = next_retry_time) in one statement, so several scanners, in one
 * process or several, never hand the same flow to two workers at once.
 */
public final class Scanner {
  /** Claims one page of due rows with id above {@code afterId}; returns their ids ascending. */
  @FunctionalInterface
  public interface DueClaims {
    List<Long> claim(long afterId, int limit, Lease lease, Instant now);
  }

  /** Told the hits and duration of every round. */
  @FunctionalInterface
  public interface RoundListener {
    void round(int hits, long elapsedMillis);
  }

  private final DueClaims claims;
  private final LeaseTokens leases;
  private final EngineConfig config;
  private final RoundListener listener;
  private final Clock clock;

  /** The scanner of payment flows. */
  public Scanner(
      FlowStore store, LeaseTokens leases, EngineConfig config, EngineEvents events, Clock clock) {
    this(store::claimDue, leases, config, events::scannerRound, clock);
  }

  /** A scanner of any leased table (flows, refund orders) through its claim statement. */
  public Scanner(
      DueClaims claims,
      LeaseTokens leases,
      EngineConfig config,
      RoundListener listener,
      Clock clock) {
    this.claims = claims;
    this.leases = leases;
    this.config = config;
    this.listener = listener;
    this.clock = clock;
  }

  /**
   * Runs one round and hands every claimed flow to {@code dispatch} with the lease it was claimed
   * under. Returns the number of flows claimed.
   */
  public int runRound(Dispatcher dispatch) {
    long started = clock.millis();
    long cursor = 0;
    int hits = 0;
    while (true) {
      Lease lease = leases.next();
      List<Long> ids = claims.claim(cursor, config.scanBatch(), lease, clock.instant());
      for (long id : ids) {
        dispatch.dispatch(id, Trigger.held(TriggerSource.SCANNER, lease));
      }
      hits += ids.size();
      if (ids.size() < config.scanBatch()) {
        break;
      }
      cursor = ids.get(ids.size() - 1);
    }
    listener.round(hits, clock.millis() - started);
    return hits;
  }

  /** Receives a claimed row; the runtime runs it on a worker. */
  @FunctionalInterface
  public interface Dispatcher {
    void dispatch(long flowId, Trigger trigger);
  }
}
