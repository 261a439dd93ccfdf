package dev.clearway.core.engine;

import dev.clearway.core.domain.NewPayment;
import dev.clearway.core.domain.PayFlow;
import dev.clearway.core.domain.TriggerSource;
import dev.clearway.core.port.FlowStore;
import dev.clearway.core.port.FlowStore.CreateResult;
import dev.clearway.core.port.FlowStore.Lease;
import java.time.Clock;

/**
 * The synchronous entry: create the goal's next attempt (or find its live one) and advance it in
 * the caller's thread. The creation lease keeps scanners and wake-ups away while the caller works.
 */
public final class PaymentService {
  private final FlowStore store;
  private final Advancer advancer;
  private final LeaseTokens leases;
  private final Clock clock;

  public PaymentService(FlowStore store, Advancer advancer, LeaseTokens leases, Clock clock) {
    this.store = store;
    this.advancer = advancer;
    this.leases = leases;
    this.clock = clock;
  }

  /** What the synchronous call returns: the attempt and whether this call created it. */
  public record Started(AdvanceResult result, boolean created) {
    public PayFlow flow() {
      return result.flow();
    }
  }

  /**
   * Starts a payment. If the goal already has a live attempt, that attempt is returned and advanced
   * (the "payment in progress" answer); a new attempt is only created after a definite failure.
   */
  public Started start(NewPayment payment) {
    Lease lease = leases.next();
    CreateResult created = store.createAttempt(payment, lease, clock.instant());
    if (!created.created()) {
      return new Started(
          advancer.advance(created.flow().id(), Trigger.unclaimed(TriggerSource.SYNC)), false);
    }
    return new Started(
        advancer.advanceCreated(created.flow(), Trigger.held(TriggerSource.SYNC, lease)), true);
  }
}
