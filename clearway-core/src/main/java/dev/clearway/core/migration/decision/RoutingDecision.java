package dev.clearway.core.migration.decision;

import dev.clearway.core.migration.domain.ClearwayHistory;
import dev.clearway.core.migration.domain.HandBack;
import dev.clearway.core.migration.domain.LegacyAnswer;
import dev.clearway.core.migration.domain.Route;
import java.util.Optional;

/**
 * Where a goal goes during a gray migration, decided step by step so that each probe is asked only
 * when the steps before it left the goal open:
 *
 * <ol>
 *   <li>a goal with a live Clearway attempt stays with Clearway (its create is an idempotent
 *       replay), whatever the rollout or the switch say now;
 *   <li>a goal Clearway has never seen stays on the legacy path while new-payment intake of the
 *       migrated path is rolled back, and goes to Clearway only if its user is in the rollout; a
 *       goal Clearway has already seen (all its attempts ended) stays with Clearway whatever the
 *       rollout or the switch say now, so that a goal Clearway paid is never sent to the legacy
 *       path to be paid again;
 *   <li>a legacy in-flight marker hands the goal back (its reference named);
 *   <li>a payment of the goal in the legacy store hands it back;
 *   <li>all clear: Clearway, where the store's creation keeps one live attempt per goal.
 * </ol>
 *
 * A probe that cannot answer stops the decision as {@link Route.Unknown}: nothing is created on a
 * guess, so a goal is never paid on both paths.
 */
public final class RoutingDecision {
  public static final String MARKERS = "markers";
  public static final String LEGACY_STORE = "legacy_store";

  private RoutingDecision() {}

  /** Steps 1 and 2; empty when the legacy probes must be asked. */
  public static Optional<Route> beforeProbes(
      ClearwayHistory history, boolean rolledBack, boolean inRollout) {
    if (history == ClearwayHistory.LIVE) {
      return Optional.of(new Route.Clearway());
    }
    if (history == ClearwayHistory.NONE && rolledBack) {
      return Optional.of(new Route.Legacy(HandBack.ROLLED_BACK, null));
    }
    if (history == ClearwayHistory.NONE && !inRollout) {
      return Optional.of(new Route.Legacy(HandBack.NOT_IN_ROLLOUT, null));
    }
    return Optional.empty();
  }

  /** Step 3; empty when the legacy store must be asked. */
  public static Optional<Route> afterMarkers(LegacyAnswer markers) {
    if (markers instanceof LegacyAnswer.InFlight found) {
      return Optional.of(new Route.Legacy(HandBack.MARKER, found.reference()));
    }
    if (markers instanceof LegacyAnswer.Unknown unknown) {
      return Optional.of(new Route.Unknown(MARKERS, unknown.why()));
    }
    return Optional.empty();
  }

  /** Steps 4 and 5. */
  public static Route afterStore(LegacyAnswer store) {
    if (store instanceof LegacyAnswer.InFlight found) {
      return new Route.Legacy(HandBack.LEGACY_STORE, found.reference());
    }
    if (store instanceof LegacyAnswer.Unknown unknown) {
      return new Route.Unknown(LEGACY_STORE, unknown.why());
    }
    return new Route.Clearway();
  }

  /** Every step at once, for answers already known. */
  public static Route decide(
      ClearwayHistory history,
      boolean rolledBack,
      boolean inRollout,
      LegacyAnswer markers,
      LegacyAnswer store) {
    return beforeProbes(history, rolledBack, inRollout)
        .or(() -> afterMarkers(markers))
        .orElseGet(() -> afterStore(store));
  }
}
