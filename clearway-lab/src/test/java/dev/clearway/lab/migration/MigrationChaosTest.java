package dev.clearway.lab.migration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.store.Database;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The migration chaos at a small size on embedded PostgreSQL: a third of the goals in flight on the
 * simulated legacy path at switch-over, zero goals charged by both paths; and the control run
 * without the legacy probes, where goals are charged twice, so the check can fail.
 */
class MigrationChaosTest {
  private static Database db;

  @BeforeAll
  static void start() {
    db = Database.embedded(24);
  }

  @AfterAll
  static void stop() {
    db.close();
  }

  @Test
  void aSwitchOverWithGoalsInFlightOnTheLegacyPathChargesNoGoalTwice() throws Exception {
    MigrationChaosReport report = new MigrationChaos(db, 300, 7, 0.35, System.err).run();
    System.err.println(report.toJson());
    assertThat(report.violations()).isEmpty();
    assertThat(report.counts().get("double_charges")).isZero();
    assertThat(report.counts().get("legacy_in_flight_at_switch_over")).isGreaterThan(60);
    // The probes handed goals back, the rollout kept users on the legacy path, the roll-back
    // window kept new goals there, and both paths charged goals.
    assertThat(
            report.counts().getOrDefault("handbacks_marker", 0L)
                + report.counts().getOrDefault("handbacks_legacy_store", 0L))
        .isGreaterThan(30);
    assertThat(report.counts()).containsKeys("handbacks_not_in_rollout", "handbacks_rolled_back");
    assertThat(report.counts().get("clearway_charged_goals")).isGreaterThan(100);
    assertThat(report.counts().get("legacy_charged_goals")).isGreaterThan(60);
  }

  @Test
  void withoutTheLegacyProbesGoalsInFlightAreChargedTwice() throws Exception {
    MigrationChaosReport report = new MigrationChaos(db, 200, 8, 0.5, System.err, false).run();
    assertThat(report.counts().get("double_charges")).isPositive();
    assertThat(report.passed()).isFalse();
  }
}
