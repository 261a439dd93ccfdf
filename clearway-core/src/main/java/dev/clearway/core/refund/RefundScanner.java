package dev.clearway.core.refund;

import dev.clearway.core.domain.TriggerSource;
import dev.clearway.core.engine.EngineConfig;
import dev.clearway.core.engine.LeaseTokens;
import dev.clearway.core.engine.Trigger;
import dev.clearway.core.port.FlowStore.Lease;
import java.time.Clock;
import java.util.List;

/**
 * The refund safety net, built like the flow scanner (seed 000 section 10): every round starts from
 * id 0 and pages by primary key with a cursor local to the round, so a refund that was not due last
 * round is found this round; each page claims its rows in one statement (FOR UPDATE SKIP LOCKED,
 * lease = next_retry_time), so scanners in one process or several never hand the same refund to two
 * workers at once. PENDING (creator died), PROCESSING and ABNORMAL rows are all found here.
 */
public final class RefundScanner {
  private final RefundStore store;
  private final LeaseTokens leases;
  private final EngineConfig config;
  private final RefundEvents events;
  private final Clock clock;

  public RefundScanner(
      RefundStore store,
      LeaseTokens leases,
      EngineConfig config,
      RefundEvents events,
      Clock clock) {
    this.store = store;
    this.leases = leases;
    this.config = config;
    this.events = events;
    this.clock = clock;
  }

  /** Runs one round, handing every claimed refund to {@code dispatch}; returns how many. */
  public int runRound(Dispatcher dispatch) {
    long started = clock.millis();
    long cursor = 0;
    int hits = 0;
    while (true) {
      Lease lease = leases.next();
      List<Long> ids = store.claimDue(cursor, config.scanBatch(), lease, clock.instant());
      for (long id : ids) {
        dispatch.dispatch(id, Trigger.held(TriggerSource.SCANNER, lease));
      }
      hits += ids.size();
      if (ids.size() < config.scanBatch()) {
        break;
      }
      cursor = ids.get(ids.size() - 1);
    }
    events.scannerRound(hits, clock.millis() - started);
    return hits;
  }

  /** Receives a claimed refund; the runtime runs it on a worker. */
  @FunctionalInterface
  public interface Dispatcher {
    void dispatch(long refundId, Trigger trigger);
  }
}
