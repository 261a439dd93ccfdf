package dev.clearway.service.migration;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.migration.domain.HandBack;
import dev.clearway.core.migration.domain.Route;
import dev.clearway.core.migration.engine.MigrationRouter;
import dev.clearway.service.api.ApiException;
import java.time.Duration;
import org.springframework.http.HttpStatus;

/**
 * The routing step of the API: one decision ({@link MigrationRouter}) for a goal's payment, query
 * and cancel, and its answer when the goal is not Clearway's: {@code 409 legacy_in_flight} naming
 * the legacy reference, {@code 409 legacy_route} for a user outside the rollout or while rolled
 * back, {@code 503 legacy_unknown} (with Retry-After) when a probe cannot answer. Each is raised
 * before anything is written.
 */
public final class MigrationGate {
  /** No migration: every goal is Clearway's. */
  public static final MigrationGate OFF = new MigrationGate(null, Duration.ofSeconds(1));

  private final MigrationRouter router;
  private final Duration retryAfter;

  public MigrationGate(MigrationRouter router, Duration retryAfter) {
    this.router = router;
    this.retryAfter = retryAfter;
  }

  /** Where the goal goes now. */
  public Route route(GoalKey goal) {
    return router == null ? new Route.Clearway() : router.route(goal);
  }

  /** Returns when Clearway serves the goal; otherwise throws the hand-back. */
  public void admit(GoalKey goal) {
    refuseUnlessClearway(route(goal));
  }

  /** Throws the answer of a route that is not Clearway's. */
  public void refuseUnlessClearway(Route route) {
    if (route instanceof Route.Legacy legacy) {
      throw handBack(legacy);
    }
    if (route instanceof Route.Unknown unknown) {
      throw ApiException.retryLater(
          HttpStatus.SERVICE_UNAVAILABLE,
          "legacy_unknown",
          "whether the legacy payment path is paying this goal cannot be read now ("
              + unknown.probe()
              + "); nothing was created: retry with the same Idempotency-Key",
          retryAfter);
    }
  }

  private static ApiException handBack(Route.Legacy legacy) {
    if (legacy.reason() == HandBack.MARKER || legacy.reason() == HandBack.LEGACY_STORE) {
      return ApiException.handBack(
          HttpStatus.CONFLICT,
          "legacy_in_flight",
          "a payment of this goal is in flight on the legacy payment path (legacyReference):"
              + " pay, query and cancel it there",
          legacy.reference());
    }
    String why =
        legacy.reason() == HandBack.ROLLED_BACK
            ? "new payments go through the legacy payment path (the migration is rolled back)"
            : "this user is served by the legacy payment path";
    return ApiException.handBack(HttpStatus.CONFLICT, "legacy_route", why, null);
  }
}
