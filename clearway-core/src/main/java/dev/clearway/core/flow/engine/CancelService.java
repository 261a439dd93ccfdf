package dev.clearway.core.flow.engine;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.flow.port.FlowStore.TransitionWrite;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.function.LongConsumer;

/**
 * Cancel of a goal's attempt: before any payment call it closes the flow (WAIT_PAY to CLOSED);
 * during PAYING it records the request, and the advancer then closes the order at the wallet or, if
 * the charge landed anyway, refunds it, never fulfils it. Once the charge is known (PAYED and
 * later) a cancel is refused: money goes back through a refund.
 */
public final class CancelService {
  private final FlowStore store;
  private final LongConsumer wake;
  private final Clock clock;

  /**
   * @param wake hands the flow to the advancer (a wake-up); losing it only delays the outcome
   */
  public CancelService(FlowStore store, LongConsumer wake, Clock clock) {
    this.store = store;
    this.wake = wake;
    this.clock = clock;
  }

  /** The result of a cancel: the flow as it is now, and whether the cancel holds. */
  public record Outcome(PayFlow flow, boolean accepted) {}

  public Optional<Outcome> cancel(long flowId) {
    for (int i = 0; i < 3; i++) {
      Optional<PayFlow> read = store.find(flowId);
      if (read.isEmpty()) {
        return Optional.empty();
      }
      PayFlow flow = read.get();
      Instant now = clock.instant();
      switch (flow.status()) {
        case WAIT_PAY -> {
          Optional<PayFlow> closed = close(flow, now);
          if (closed.isPresent()) {
            return Optional.of(new Outcome(closed.get(), true));
          }
          // Race: the creator moved it to PAYING first; read again and record the request.
        }
        case PAYING -> {
          if (flow.isCancelRequested() || store.requestCancel(flowId, now)) {
            wake.accept(flowId);
            return Optional.of(new Outcome(store.find(flowId).orElse(flow), true));
          }
          // Race: the charge was confirmed (PAYED) meanwhile; read again.
        }
        case CLOSED, PAY_FAIL -> {
          return Optional.of(new Outcome(flow, true));
        }
        case PAYED, REFUNDING, REFUNDED, BIZ_SUCCESS -> {
          return Optional.of(new Outcome(flow, flow.isCancelRequested()));
        }
      }
    }
    return store.find(flowId).map(f -> new Outcome(f, f.isCancelRequested()));
  }

  private Optional<PayFlow> close(PayFlow flow, Instant now) {
    // A command, not a worker: it holds no lease. Its version bump fences the creator, whose CAS
    // to PAYING (before any payment call) then finds the row moved.
    return store.transition(
        TransitionWrite.command(
            flow,
            FlowStatus.CLOSED,
            "CANCELLED",
            new HistoryNote(TriggerSource.API, null, "CANCEL", 0),
            now));
  }
}
