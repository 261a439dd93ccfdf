package dev.clearway.core.flow.engine;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.ReviewState;
import dev.clearway.core.flow.domain.Transitions;
import dev.clearway.core.flow.engine.AdvanceResult.Outcome;
import dev.clearway.core.flow.port.EngineEvents;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.flow.port.FlowStore.RescheduleWrite;
import dev.clearway.core.flow.port.FlowStore.TransitionWrite;
import dev.clearway.core.flow.port.WakeupScheduler;
import dev.clearway.core.lease.LeaseHold;
import dev.clearway.core.lease.LeasedAdvance;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The state writes of an advance: transitions, reschedules, escalations and freezes, each a CAS
 * fenced by the lease the step holds ({@link LeaseHold#holder()}). A write refused because the
 * worker no longer holds the lease changes nothing and is counted ({@link EngineEvents#leaseLost}).
 */
final class FlowWrites {
  /** The leased table, as counted in {@link EngineEvents#leaseLost}. */
  static final String TABLE = "pay_flow";

  private final FlowStore store;
  private final WakeupScheduler wakeups;
  private final EngineEvents events;
  private final LeasedAdvance<PayFlow, ?> loop;
  private final EngineConfig config;
  private final Clock clock;

  FlowWrites(
      FlowStore store,
      WakeupScheduler wakeups,
      EngineEvents events,
      LeasedAdvance<PayFlow, ?> loop,
      EngineConfig config,
      Clock clock) {
    this.store = store;
    this.wakeups = wakeups;
    this.events = events;
    this.loop = loop;
    this.config = config;
    this.clock = clock;
  }

  /** CAS transition; empty when the row moved or the lease is lost (handled here). */
  Optional<PayFlow> move(
      PayFlow flow,
      FlowStatus to,
      String errorCode,
      LeaseHold step,
      String requestId,
      String klass) {
    Transitions.requireLegal(flow.status(), to);
    Instant now = clock.instant();
    boolean keepLease = !to.isTerminal();
    HistoryNote note =
        new HistoryNote(
            step.trigger().source(), requestId, klass, clock.millis() - step.startedAt());
    TransitionWrite write =
        new TransitionWrite(
            flow,
            to,
            errorCode,
            keepLease ? now.plus(config.lease()) : now,
            keepLease ? step.holder() : null,
            note,
            now,
            step.holder());
    Optional<PayFlow> written = store.transition(write);
    if (written.isPresent()) {
      Duration dwell =
          flow.updatedAt() == null ? Duration.ZERO : Duration.between(flow.updatedAt(), now);
      events.transitioned(flow.status(), to, dwell);
      return written;
    }
    onConflict(flow, to, step);
    return Optional.empty();
  }

  /**
   * 0 rows updated: re-read. A worker that no longer holds the lease (taken over after it expired,
   * or released by a person's command) wrote nothing and stops: the holder decides now. Otherwise
   * the same or a later legal state ends the step idempotently; any other state is a contradictory
   * branch, which freezes the flow and raises an alert.
   */
  private void onConflict(PayFlow flow, FlowStatus intended, LeaseHold step) {
    PayFlow current = store.find(flow.id()).orElseThrow();
    if (!step.holder().equals(current.leaseOwner())) {
      events.leaseLost(TABLE);
      return;
    }
    if (current.status() == flow.status()
        || Transitions.isSameOrLater(intended, current.status())) {
      events.casConflict(intended, current.status(), "IDEMPOTENT");
      return;
    }
    events.casConflict(intended, current.status(), "CONTRADICTION");
    freeze(current, step, "CAS_CONTRADICTION_" + intended + "_FOUND_" + current.status());
  }

  Outcome reschedule(PayFlow flow, LeaseHold step, String errorCode, boolean boundedByDeadline) {
    int retries = flow.retryCount() + 1;
    boolean escalate =
        (retries > config.retryBudget() && !boundedByDeadline)
            || flow.reviewState() == ReviewState.ESCALATED;
    ReviewState review = escalate ? ReviewState.ESCALATED : flow.reviewState();
    String reason =
        escalate
            ? orElse(flow.reviewReason(), "RETRY_BUDGET_SPENT:" + errorCode)
            : flow.reviewReason();
    return schedule(flow, step, retries, errorCode, review, reason);
  }

  Outcome escalate(PayFlow flow, LeaseHold step, String errorCode) {
    return schedule(
        flow,
        step,
        flow.retryCount() + 1,
        errorCode,
        ReviewState.ESCALATED,
        orElse(flow.reviewReason(), errorCode));
  }

  private Outcome schedule(
      PayFlow flow,
      LeaseHold step,
      int retries,
      String errorCode,
      ReviewState review,
      String reason) {
    boolean escalated = review == ReviewState.ESCALATED;
    // Every writer that moves the row (a command, a freeze) also releases the lease, so a refused
    // reschedule means this worker no longer holds the flow: nothing was written (counted).
    Optional<Instant> next =
        loop.reschedule(
            flow.id(),
            flow.retryCount(),
            escalated,
            (due, now) ->
                store.reschedule(
                    new RescheduleWrite(
                        flow, retries, due, errorCode, review, reason, now, step.holder())));
    if (next.isEmpty()) {
      return Outcome.BUSY;
    }
    events.rescheduled(flow.status(), errorCode);
    if (escalated && flow.reviewState() != ReviewState.ESCALATED) {
      events.escalated(flow.id(), flow.status(), errorCode);
    }
    wakeups.schedule(flow.id(), next.get());
    return Outcome.WAITING;
  }

  Outcome freeze(PayFlow flow, LeaseHold step, String reason) {
    if (!store.freeze(flow.id(), step.holder(), reason, clock.instant())) {
      events.leaseLost(TABLE);
      return Outcome.BUSY;
    }
    events.frozen(flow.id(), reason);
    return Outcome.FROZEN;
  }

  private static String orElse(String value, String fallback) {
    return value != null ? value : fallback;
  }
}
