package dev.clearway.core.flow.domain;

import static dev.clearway.core.flow.domain.FlowStatus.BIZ_SUCCESS;
import static dev.clearway.core.flow.domain.FlowStatus.CLOSED;
import static dev.clearway.core.flow.domain.FlowStatus.PAYED;
import static dev.clearway.core.flow.domain.FlowStatus.PAYING;
import static dev.clearway.core.flow.domain.FlowStatus.PAY_FAIL;
import static dev.clearway.core.flow.domain.FlowStatus.REFUNDED;
import static dev.clearway.core.flow.domain.FlowStatus.REFUNDING;
import static dev.clearway.core.flow.domain.FlowStatus.WAIT_PAY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The transition table against an independent transcription of the design's state diagram (with
 * CLOSED): exactly these seven edges are legal, every other ordered pair is rejected.
 */
class TransitionsTest {

  /** The expected table, written out edge by edge rather than derived from the code under test. */
  private static final List<Edge> LEGAL_EDGES =
      List.of(
          new Edge(WAIT_PAY, PAYING),
          new Edge(WAIT_PAY, CLOSED),
          new Edge(PAYING, PAYED),
          new Edge(PAYING, PAY_FAIL),
          new Edge(PAYED, BIZ_SUCCESS),
          new Edge(PAYED, REFUNDING),
          new Edge(REFUNDING, REFUNDED));

  private record Edge(FlowStatus from, FlowStatus to) {}

  static Stream<Arguments> legalEdges() {
    return LEGAL_EDGES.stream().map(e -> Arguments.of(e.from(), e.to()));
  }

  static Stream<Arguments> illegalPairs() {
    List<Arguments> pairs = new ArrayList<>();
    for (FlowStatus from : FlowStatus.values()) {
      for (FlowStatus to : FlowStatus.values()) {
        if (!LEGAL_EDGES.contains(new Edge(from, to))) {
          pairs.add(Arguments.of(from, to));
        }
      }
    }
    return pairs.stream();
  }

  @ParameterizedTest(name = "{0} -> {1} is legal")
  @MethodSource("legalEdges")
  void everyLegalEdgeIsAccepted(FlowStatus from, FlowStatus to) {
    assertThat(Transitions.isLegal(from, to)).isTrue();
    assertThat(Transitions.targetsOf(from)).contains(to);
    assertThatCode(() -> Transitions.requireLegal(from, to)).doesNotThrowAnyException();
  }

  @ParameterizedTest(name = "{0} -> {1} is rejected")
  @MethodSource("illegalPairs")
  void everyOtherPairIsRejected(FlowStatus from, FlowStatus to) {
    assertThat(Transitions.isLegal(from, to)).isFalse();
    assertThat(Transitions.targetsOf(from)).doesNotContain(to);
    assertThatThrownBy(() -> Transitions.requireLegal(from, to))
        .isInstanceOf(IllegalTransitionException.class)
        .hasMessageContaining(from + " -> " + to);
  }

  @Test
  void theTableCoversAllSixtyFourPairs() {
    assertThat(legalEdges().count() + illegalPairs().count()).isEqualTo(64);
    assertThat(illegalPairs().count()).isEqualTo(57);
  }

  @ParameterizedTest(name = "{0} -> {1} is rejected (named in the design as forbidden)")
  @CsvSource({
    "PAYING, WAIT_PAY",
    "REFUNDING, BIZ_SUCCESS",
    "BIZ_SUCCESS, REFUNDING",
    "CLOSED, PAYED",
    "PAY_FAIL, PAYING",
    "PAY_FAIL, PAYED",
    "REFUNDED, REFUNDING",
    "WAIT_PAY, PAYED",
    "PAYED, PAY_FAIL",
    "PAYED, PAYING",
    "REFUNDING, PAYED",
    "BIZ_SUCCESS, REFUNDED"
  })
  void namedForbiddenTransitionsAreRejected(FlowStatus from, FlowStatus to) {
    assertThat(Transitions.isLegal(from, to)).isFalse();
    assertThatThrownBy(() -> Transitions.requireLegal(from, to))
        .isInstanceOf(IllegalTransitionException.class);
  }

  @ParameterizedTest
  @EnumSource(FlowStatus.class)
  void noStatusTransitionsToItself(FlowStatus s) {
    assertThat(Transitions.isLegal(s, s)).isFalse();
  }

  @ParameterizedTest
  @EnumSource(FlowStatus.class)
  void terminalStatusesHaveNoExitAndLiveOnesHaveOne(FlowStatus s) {
    if (s.isTerminal()) {
      assertThat(Transitions.targetsOf(s)).isEmpty();
    } else {
      assertThat(Transitions.targetsOf(s)).isNotEmpty();
      assertThat(reachable(s))
          .as("every live status can reach a terminal one")
          .anyMatch(t -> t.isTerminal());
    }
  }

  @Test
  void terminalAndDefiniteFailureFlags() {
    assertThat(EnumSet.allOf(FlowStatus.class).stream().filter(FlowStatus::isTerminal))
        .containsExactlyInAnyOrder(PAY_FAIL, BIZ_SUCCESS, REFUNDED, CLOSED);
    assertThat(EnumSet.allOf(FlowStatus.class).stream().filter(FlowStatus::isDefiniteFailure))
        .containsExactlyInAnyOrder(PAY_FAIL, CLOSED);
  }

  @Test
  void targetsOfIsReadOnly() {
    Set<FlowStatus> targets = Transitions.targetsOf(WAIT_PAY);
    assertThatThrownBy(() -> targets.add(PAYED)).isInstanceOf(UnsupportedOperationException.class);
    assertThat(Transitions.isLegal(WAIT_PAY, PAYED)).isFalse();
  }

  // ---- isSameOrLater ----------------------------------------------------------------------

  static Stream<Arguments> allPairs() {
    List<Arguments> pairs = new ArrayList<>();
    for (FlowStatus target : FlowStatus.values()) {
      for (FlowStatus current : FlowStatus.values()) {
        pairs.add(Arguments.of(target, current));
      }
    }
    return pairs.stream();
  }

  @ParameterizedTest(name = "isSameOrLater(target={0}, current={1})")
  @MethodSource("allPairs")
  void isSameOrLaterMatchesReachabilityOverTheExpectedTable(FlowStatus target, FlowStatus current) {
    boolean expected = target == current || reachable(target).contains(current);
    assertThat(Transitions.isSameOrLater(target, current)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "isSameOrLater(target={0}, current={1}) == {2}")
  @CsvSource({
    // the same state ends idempotently
    "PAYED, PAYED, true",
    "PAYING, PAYING, true",
    // later on a legal path
    "PAYING, PAYED, true",
    "PAYING, BIZ_SUCCESS, true",
    "PAYING, REFUNDED, true",
    "PAYING, PAY_FAIL, true",
    "PAYED, REFUNDED, true",
    "WAIT_PAY, CLOSED, true",
    "REFUNDING, REFUNDED, true",
    // a mutually exclusive branch is not "later": it is a contradiction
    "PAYED, PAY_FAIL, false",
    "PAY_FAIL, PAYED, false",
    "BIZ_SUCCESS, REFUNDING, false",
    "BIZ_SUCCESS, REFUNDED, false",
    "REFUNDING, BIZ_SUCCESS, false",
    "CLOSED, PAYING, false",
    "PAYING, CLOSED, false",
    // earlier is never later
    "PAYED, PAYING, false",
    "PAYED, WAIT_PAY, false",
    "REFUNDED, REFUNDING, false"
  })
  void isSameOrLaterExamples(FlowStatus target, FlowStatus current, boolean expected) {
    assertThat(Transitions.isSameOrLater(target, current)).isEqualTo(expected);
  }

  /** Statuses reachable from {@code from} in one or more steps of {@link #LEGAL_EDGES}. */
  private static Set<FlowStatus> reachable(FlowStatus from) {
    Set<FlowStatus> seen = EnumSet.noneOf(FlowStatus.class);
    ArrayDeque<FlowStatus> todo = new ArrayDeque<>(List.of(from));
    while (!todo.isEmpty()) {
      FlowStatus s = todo.poll();
      for (Edge e : LEGAL_EDGES) {
        if (e.from() == s && seen.add(e.to())) {
          todo.add(e.to());
        }
      }
    }
    return seen;
  }
}
