package dev.clearway.core.migration.engine;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.migration.decision.RoutingDecision;
import dev.clearway.core.migration.domain.ClearwayHistory;
import dev.clearway.core.migration.domain.Rollout;
import dev.clearway.core.migration.domain.Route;
import dev.clearway.core.migration.port.LegacyMarkers;
import dev.clearway.core.migration.port.LegacyPaymentStore;
import dev.clearway.core.migration.port.MigrationEvents;
import java.util.function.BooleanSupplier;

/**
 * The routing step before a payment, a query or a cancel of a goal: reads what Clearway holds, asks
 * the legacy probes in order ({@link RoutingDecision}) and counts every hand-back and every probe
 * that could not answer.
 */
public final class MigrationRouter {
  private final Rollout rollout;
  private final BooleanSupplier rolledBack;
  private final LegacyMarkers markers;
  private final LegacyPaymentStore legacyStore;
  private final FlowStore flows;
  private final MigrationEvents events;

  public MigrationRouter(
      Rollout rollout,
      BooleanSupplier rolledBack,
      LegacyMarkers markers,
      LegacyPaymentStore legacyStore,
      FlowStore flows,
      MigrationEvents events) {
    this.rollout = rollout;
    this.rolledBack = rolledBack;
    this.markers = markers;
    this.legacyStore = legacyStore;
    this.flows = flows;
    this.events = events;
  }

  /** Where the goal goes now. */
  public Route route(GoalKey goal) {
    ClearwayHistory history = ClearwayHistory.of(flows.findByGoal(goal));
    Route route =
        RoutingDecision.beforeProbes(
                history,
                history == ClearwayHistory.NONE && rolledBack.getAsBoolean(),
                rollout.includes(goal.merchant(), goal.userId()))
            .or(() -> RoutingDecision.afterMarkers(markers.probe(goal)))
            .orElseGet(() -> RoutingDecision.afterStore(legacyStore.probe(goal)));
    count(route);
    return route;
  }

  private void count(Route route) {
    if (route instanceof Route.Legacy legacy) {
      events.handedBack(legacy.reason());
    } else if (route instanceof Route.Unknown unknown) {
      events.unknown(unknown.probe());
    }
  }
}
