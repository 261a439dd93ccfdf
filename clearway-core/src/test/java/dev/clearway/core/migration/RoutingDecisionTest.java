package dev.clearway.core.migration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.migration.decision.RoutingDecision;
import dev.clearway.core.migration.domain.ClearwayHistory;
import dev.clearway.core.migration.domain.HandBack;
import dev.clearway.core.migration.domain.LegacyAnswer;
import dev.clearway.core.migration.domain.Route;
import org.junit.jupiter.api.Test;

/** The routing decision over every combination of its facts. */
class RoutingDecisionTest {
  private static final LegacyAnswer CLEAR = LegacyAnswer.clear();
  private static final LegacyAnswer MARK = LegacyAnswer.inFlight("L-marker");
  private static final LegacyAnswer ROW = LegacyAnswer.inFlight("L-row");
  private static final LegacyAnswer DOWN = LegacyAnswer.unknown("down");

  @Test
  void allClearAndInRolloutGoesToClearway() {
    assertThat(RoutingDecision.decide(ClearwayHistory.NONE, false, true, CLEAR, CLEAR))
        .isEqualTo(new Route.Clearway());
  }

  @Test
  void aLiveClearwayAttemptStaysWithClearwayWhateverElseSays() {
    for (boolean rolledBack : new boolean[] {false, true}) {
      for (boolean in : new boolean[] {false, true}) {
        for (LegacyAnswer m : new LegacyAnswer[] {CLEAR, MARK, DOWN}) {
          assertThat(RoutingDecision.decide(ClearwayHistory.LIVE, rolledBack, in, m, ROW))
              .isEqualTo(new Route.Clearway());
        }
      }
    }
  }

  @Test
  void rolledBackKeepsNewGoalsOnTheLegacyPathButNeverAGoalClearwayHasSeen() {
    assertThat(RoutingDecision.decide(ClearwayHistory.NONE, true, true, CLEAR, CLEAR))
        .isEqualTo(new Route.Legacy(HandBack.ROLLED_BACK, null));
    // A goal Clearway may have paid is never sent to the legacy path to be paid again.
    assertThat(RoutingDecision.decide(ClearwayHistory.ENDED, true, false, CLEAR, CLEAR))
        .isEqualTo(new Route.Clearway());
    assertThat(RoutingDecision.decide(ClearwayHistory.ENDED, true, true, CLEAR, ROW))
        .isEqualTo(new Route.Legacy(HandBack.LEGACY_STORE, "L-row"));
  }

  @Test
  void aNewUserOutsideTheRolloutStaysOnTheLegacyPathButAMigratedGoalStays() {
    assertThat(RoutingDecision.decide(ClearwayHistory.NONE, false, false, CLEAR, CLEAR))
        .isEqualTo(new Route.Legacy(HandBack.NOT_IN_ROLLOUT, null));
    assertThat(RoutingDecision.decide(ClearwayHistory.ENDED, false, false, CLEAR, CLEAR))
        .isEqualTo(new Route.Clearway());
  }

  @Test
  void theMarkerIsAskedBeforeTheStoreAndNamesItsReference() {
    assertThat(RoutingDecision.decide(ClearwayHistory.NONE, false, true, MARK, ROW))
        .isEqualTo(new Route.Legacy(HandBack.MARKER, "L-marker"));
    assertThat(RoutingDecision.decide(ClearwayHistory.NONE, false, true, CLEAR, ROW))
        .isEqualTo(new Route.Legacy(HandBack.LEGACY_STORE, "L-row"));
    assertThat(RoutingDecision.decide(ClearwayHistory.ENDED, false, true, CLEAR, ROW))
        .isEqualTo(new Route.Legacy(HandBack.LEGACY_STORE, "L-row"));
  }

  @Test
  void aProbeThatCannotAnswerCreatesNothing() {
    assertThat(RoutingDecision.decide(ClearwayHistory.NONE, false, true, DOWN, CLEAR))
        .isEqualTo(new Route.Unknown(RoutingDecision.MARKERS, "down"));
    assertThat(RoutingDecision.decide(ClearwayHistory.NONE, false, true, CLEAR, DOWN))
        .isEqualTo(new Route.Unknown(RoutingDecision.LEGACY_STORE, "down"));
    // A marker found decides even when the store cannot answer.
    assertThat(RoutingDecision.decide(ClearwayHistory.NONE, false, true, MARK, DOWN))
        .isEqualTo(new Route.Legacy(HandBack.MARKER, "L-marker"));
  }
}
