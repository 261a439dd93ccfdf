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
import java.util.ArrayList;
import java.util.List;
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

  /** One transition a step decided: from the row it read to {@code to}. */
  record Move(PayFlow flow, FlowStatus to, String errorCode, String requestId, String klass) {}

  /** CAS transition; empty when the row moved or the lease is lost (handled here). */
  Optional<PayFlow> move(
      PayFlow flow,
      FlowStatus to,
      String errorCode,
      LeaseHold step,
      String requestId,
      String klass) {
    Move move = new Move(flow, to, errorCode, requestId, klass);
    return written(move, store.transition(write(move, step)), step);
  }

  /**
   * The transitions of distinct flows under one lease, written together ({@link
   * FlowStore#transitions}); each result as {@link #move} returns it, in the moves' order.
   */
  List<Optional<PayFlow>> moveAll(List<Move> moves, LeaseHold step) {
    List<TransitionWrite> batch = new ArrayList<>(moves.size());
    for (Move m : moves) {
      batch.add(write(m, step));
    }
    List<Optional<PayFlow>> rows = store.transitions(batch);
    List<Optional<PayFlow>> results = new ArrayList<>(moves.size());
    for (int i = 0; i < moves.size(); i++) {
      results.add(written(moves.get(i), rows.get(i), step));
    }
    return results;
  }

  private TransitionWrite write(Move m, LeaseHold step) {
    Transitions.requireLegal(m.flow().status(), m.to());
    Instant now = clock.instant();
    boolean keepLease = !m.to().isTerminal();
    HistoryNote note =
        new HistoryNote(
            step.trigger().source(), m.requestId(), m.klass(), clock.millis() - step.startedAt());
    return new TransitionWrite(
        m.flow(),
        m.to(),
        m.errorCode(),
        keepLease ? now.plus(config.lease()) : now,
        keepLease ? step.holder() : null,
        note,
        now,
        step.holder());
  }

  private Optional<PayFlow> written(Move m, Optional<PayFlow> written, LeaseHold step) {
    PayFlow flow = m.flow();
    if (written.isPresent()) {
      Instant now = clock.instant();
      Duration dwell =
          flow.updatedAt() == null ? Duration.ZERO : Duration.between(flow.updatedAt(), now);
      events.transitioned(flow.status(), m.to(), dwell);
      return written;
    }
    onConflict(flow, m.to(), step);
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
