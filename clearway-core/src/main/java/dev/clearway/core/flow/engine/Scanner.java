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

  /**
   * Claims one page of due rows with id above {@code afterId}; returns them ascending by id, each
   * with the trigger that hands it to a worker.
   */
  @FunctionalInterface
  private interface PageClaims {
    List<Claimed> claim(long afterId, int limit, Lease lease, Instant now);
  }

  /**
   * A claimed row's id and the trigger its worker starts from (with the row itself when the claim
   * returned it).
   */
  public record Claimed(long id, Trigger trigger) {}

  /** Told the hits and duration of every round. */
  @FunctionalInterface
  public interface RoundListener {
    void round(int hits, long elapsedMillis);
  }

  private final PageClaims claims;
  private final LeaseTokens leases;
  private final EngineConfig config;
  private final RoundListener listener;
  private final Clock clock;

  /**
   * The scanner of payment flows: its claim returns the rows, and each worker starts from the row
   * its claim wrote (one statement fewer per flow than a claim of ids and a read).
   */
  public Scanner(
      FlowStore store, LeaseTokens leases, EngineConfig config, EngineEvents events, Clock clock) {
    this(
        (PageClaims)
            (afterId, limit, lease, now) ->
                store.claimDueRows(afterId, limit, lease, now).stream()
                    .map(f -> new Claimed(f.id(), Trigger.claimed(TriggerSource.SCANNER, lease, f)))
                    .toList(),
        leases,
        config,
        events::scannerRound,
        clock);
  }

  /** A scanner of any leased table (flows, refund orders) through its claim statement. */
  public Scanner(
      DueClaims claims,
      LeaseTokens leases,
      EngineConfig config,
      RoundListener listener,
      Clock clock) {
    this(
        (PageClaims)
            (afterId, limit, lease, now) ->
                claims.claim(afterId, limit, lease, now).stream()
                    .map(id -> new Claimed(id, Trigger.held(TriggerSource.SCANNER, lease)))
                    .toList(),
        leases,
        config,
        listener,
        clock);
  }

  private Scanner(
      PageClaims claims,
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
      List<Claimed> page = claims.claim(cursor, config.scanBatch(), lease, clock.instant());
      if (!page.isEmpty()) {
        dispatch.dispatchPage(page);
      }
      hits += page.size();
      if (page.size() < config.scanBatch()) {
        break;
      }
      cursor = page.get(page.size() - 1).id();
    }
    listener.round(hits, clock.millis() - started);
    return hits;
  }

  /** Receives claimed rows; the runtime runs them on its workers. */
  @FunctionalInterface
  public interface Dispatcher {
    void dispatch(long flowId, Trigger trigger);

    /**
     * Receives one claimed page, ascending by id, all under one lease; by default each row is
     * dispatched alone. A runtime that moves a page's rows together overrides this.
     */
    default void dispatchPage(List<Claimed> page) {
      for (Claimed c : page) {
        dispatch(c.id(), c.trigger());
      }
    }
  }
}
