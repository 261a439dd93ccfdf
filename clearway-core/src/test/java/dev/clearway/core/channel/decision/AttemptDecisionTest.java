package dev.clearway.core.channel.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptOrigin;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.EvidenceSource;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.ResultCertainty;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Provider evidence to the attempt's next status. The table: a success ends it SUCCEEDED, a
 * definite failure ends it FAILED, a NO_SIDE_EFFECT answer ends it only as the answer to its first
 * create, PENDING waits, and an unanswered call never erases what was known.
 */
class AttemptDecisionTest {
  private static final long AMOUNT = 1_999L;

  static Attempt attempt(AttemptStatus status) {
    return new Attempt(
        7L,
        "T0000000000000000001",
        1,
        3L,
        AttemptOrigin.INITIAL,
        null,
        "cwa-key-1",
        "hash-1",
        null,
        status,
        ResultCertainty.UNKNOWN,
        null,
        false,
        false,
        new Attempt.Money(AMOUNT, "CNY", "card"),
        0,
        0L,
        Instant.parse("2030-01-01T00:00:00Z"));
  }

  static PspOutcome outcome(ResultCertainty certainty) {
    return new PspOutcome(certainty, "status", "pi_1", "CODE", true, true, "req-1", "raw-1");
  }

  /** Every combination of the inputs that the decision reads. */
  record Evidence(
      AttemptStatus current, ResultCertainty certainty, EvidenceSource source, boolean first) {
    AttemptStatus next() {
      return AttemptDecision.next(attempt(current), outcome(certainty), source, first);
    }
  }

  static List<Evidence> everyEvidence() {
    List<Evidence> all = new ArrayList<>();
    for (AttemptStatus current : AttemptStatus.values()) {
      for (ResultCertainty certainty : ResultCertainty.values()) {
        for (EvidenceSource source : EvidenceSource.values()) {
          for (boolean first : new boolean[] {true, false}) {
            all.add(new Evidence(current, certainty, source, first));
          }
        }
      }
    }
    return all;
  }

  // ---- the table, row by row ---------------------------------------------------------------

  static Stream<Arguments> table() {
    return Stream.of(
        // certainty, source, answers the first create, current -> next
        Arguments.of(
            ResultCertainty.CONFIRMED_SUCCESS,
            EvidenceSource.CALLBACK,
            false,
            AttemptStatus.UNKNOWN,
            AttemptStatus.SUCCEEDED),
        Arguments.of(
            ResultCertainty.DEFINITE_FAILURE,
            EvidenceSource.QUERY,
            false,
            AttemptStatus.PENDING,
            AttemptStatus.FAILED),
        Arguments.of(
            ResultCertainty.NO_SIDE_EFFECT,
            EvidenceSource.RESPONSE,
            true,
            AttemptStatus.CREATED,
            AttemptStatus.FAILED),
        Arguments.of(
            ResultCertainty.NO_SIDE_EFFECT,
            EvidenceSource.RESPONSE,
            false,
            AttemptStatus.UNKNOWN,
            AttemptStatus.UNKNOWN),
        Arguments.of(
            ResultCertainty.NO_SIDE_EFFECT,
            EvidenceSource.QUERY,
            true,
            AttemptStatus.CREATED,
            AttemptStatus.UNKNOWN),
        Arguments.of(
            ResultCertainty.NO_SIDE_EFFECT,
            EvidenceSource.QUERY,
            false,
            AttemptStatus.PENDING,
            AttemptStatus.UNKNOWN),
        Arguments.of(
            ResultCertainty.PENDING,
            EvidenceSource.RESPONSE,
            true,
            AttemptStatus.CREATED,
            AttemptStatus.PENDING),
        Arguments.of(
            ResultCertainty.UNKNOWN,
            EvidenceSource.QUERY,
            false,
            AttemptStatus.PENDING,
            AttemptStatus.PENDING),
        Arguments.of(
            ResultCertainty.UNKNOWN,
            EvidenceSource.RESPONSE,
            true,
            AttemptStatus.CREATED,
            AttemptStatus.UNKNOWN),
        Arguments.of(
            ResultCertainty.UNKNOWN,
            EvidenceSource.QUERY,
            false,
            AttemptStatus.UNKNOWN,
            AttemptStatus.UNKNOWN));
  }

  @ParameterizedTest(name = "{0} from {1} (first create {2}): {3} -> {4}")
  @MethodSource("table")
  void theDecisionTable(
      ResultCertainty certainty,
      EvidenceSource source,
      boolean firstCreate,
      AttemptStatus current,
      AttemptStatus expected) {
    assertThat(new Evidence(current, certainty, source, firstCreate).next()).isEqualTo(expected);
  }

  // ---- the rules, over every combination ---------------------------------------------------

  @Test
  void onlyAConfirmedSuccessEndsAnAttemptSucceededAndItAlwaysDoes() {
    for (Evidence e : everyEvidence()) {
      assertThat(e.next() == AttemptStatus.SUCCEEDED)
          .as("%s", e)
          .isEqualTo(e.certainty() == ResultCertainty.CONFIRMED_SUCCESS);
    }
  }

  @Test
  void aNoSideEffectAnswerEndsAnAttemptOnlyAsTheAnswerToItsFirstCreate() {
    for (Evidence e : everyEvidence()) {
      if (e.certainty() != ResultCertainty.NO_SIDE_EFFECT) {
        continue;
      }
      boolean answersFirstCreate = e.first() && e.source() == EvidenceSource.RESPONSE;
      assertThat(e.next())
          .as("%s", e)
          .isEqualTo(answersFirstCreate ? AttemptStatus.FAILED : AttemptStatus.UNKNOWN);
    }
  }

  @Test
  void anAttemptFailsOnlyOnADefiniteFailureOrAFirstCreateRefusedWithoutEffect() {
    for (Evidence e : everyEvidence()) {
      boolean answersFirstCreate = e.first() && e.source() == EvidenceSource.RESPONSE;
      // The evidence here is failover-eligible: refused before it executed. As the answer to a
      // replay it proves nothing about the original create, so only the rest ends the attempt.
      boolean refusedReplay = !e.first() && e.source() == EvidenceSource.RESPONSE;
      boolean provenFailed =
          (e.certainty() == ResultCertainty.DEFINITE_FAILURE && !refusedReplay)
              || (e.certainty() == ResultCertainty.NO_SIDE_EFFECT && answersFirstCreate);
      assertThat(e.next() == AttemptStatus.FAILED).as("%s", e).isEqualTo(provenFailed);
    }
  }

  @Test
  void aReplayRefusedBeforeItExecutedKeepsTheAttemptsStatus() {
    for (Evidence e : everyEvidence()) {
      if (e.certainty() != ResultCertainty.DEFINITE_FAILURE
          || e.first()
          || e.source() != EvidenceSource.RESPONSE) {
        continue;
      }
      assertThat(e.next())
          .as("%s", e)
          .isEqualTo(
              e.current() == AttemptStatus.PENDING ? AttemptStatus.PENDING : AttemptStatus.UNKNOWN);
    }
  }

  @Test
  void anUnansweredCallKeepsAPendingAttemptPendingAndLeavesAnyOtherUnknown() {
    for (Evidence e : everyEvidence()) {
      if (e.certainty() != ResultCertainty.UNKNOWN) {
        continue;
      }
      assertThat(e.next())
          .as("%s", e)
          .isEqualTo(
              e.current() == AttemptStatus.PENDING ? AttemptStatus.PENDING : AttemptStatus.UNKNOWN);
    }
  }

  @Test
  void aPendingAnswerAlwaysLeavesTheAttemptPending() {
    for (Evidence e : everyEvidence()) {
      if (e.certainty() == ResultCertainty.PENDING) {
        assertThat(e.next()).as("%s", e).isEqualTo(AttemptStatus.PENDING);
      }
    }
  }

  // ---- amounts -----------------------------------------------------------------------------

  @Test
  void aSuccessForAnotherAmountContradictsTheAttempt() {
    Attempt a = attempt(AttemptStatus.UNKNOWN);
    PspOutcome success = outcome(ResultCertainty.CONFIRMED_SUCCESS);
    assertThat(AttemptDecision.amountContradicts(a, success.withAmount(AMOUNT + 1))).isTrue();
    assertThat(AttemptDecision.amountContradicts(a, success.withAmount(AMOUNT - 1))).isTrue();
    assertThat(AttemptDecision.amountContradicts(a, success.withAmount(0L))).isTrue();
  }

  @Test
  void aSuccessForTheAttemptsAmountOrWithoutAnAmountDoesNotContradict() {
    Attempt a = attempt(AttemptStatus.UNKNOWN);
    PspOutcome success = outcome(ResultCertainty.CONFIRMED_SUCCESS);
    assertThat(AttemptDecision.amountContradicts(a, success.withAmount(AMOUNT))).isFalse();
    assertThat(AttemptDecision.amountContradicts(a, success)).isFalse();
  }

  @ParameterizedTest
  @EnumSource(
      value = ResultCertainty.class,
      names = "CONFIRMED_SUCCESS",
      mode = EnumSource.Mode.EXCLUDE)
  void onlyASuccessCanContradictTheAmount(ResultCertainty certainty) {
    assertThat(
            AttemptDecision.amountContradicts(
                attempt(AttemptStatus.UNKNOWN), outcome(certainty).withAmount(AMOUNT + 500)))
        .isFalse();
  }

  // ---- the outcome as stored ---------------------------------------------------------------

  @Test
  void aQueryThatFindsNothingIsStoredAsUnknownNotFoundAtThePsp() {
    PspOutcome notFound = outcome(ResultCertainty.NO_SIDE_EFFECT).withAmount(AMOUNT);
    PspOutcome stored =
        AttemptDecision.stored(notFound, AttemptStatus.UNKNOWN, EvidenceSource.QUERY);
    assertThat(stored)
        .isEqualTo(
            new PspOutcome(
                ResultCertainty.NO_SIDE_EFFECT,
                "status",
                "pi_1",
                AttemptDecision.NOT_FOUND_AT_PSP,
                false,
                false,
                "req-1",
                "raw-1"));
  }

  @Test
  void aReplayRefusedWithoutEffectKeepsItsOwnCode() {
    PspOutcome refused = outcome(ResultCertainty.NO_SIDE_EFFECT);
    assertThat(AttemptDecision.stored(refused, AttemptStatus.UNKNOWN, EvidenceSource.RESPONSE))
        .isSameAs(refused);
  }

  @Test
  void aFirstCreateRefusedWithoutEffectIsStoredAsAnswered() {
    PspOutcome refused = outcome(ResultCertainty.NO_SIDE_EFFECT);
    assertThat(AttemptDecision.stored(refused, AttemptStatus.FAILED, EvidenceSource.QUERY))
        .isSameAs(refused);
    assertThat(AttemptDecision.stored(refused, AttemptStatus.FAILED, EvidenceSource.RESPONSE))
        .isSameAs(refused);
  }

  @ParameterizedTest
  @EnumSource(
      value = ResultCertainty.class,
      names = "NO_SIDE_EFFECT",
      mode = EnumSource.Mode.EXCLUDE)
  void everyOtherAnswerIsStoredAsAnswered(ResultCertainty certainty) {
    PspOutcome answer = outcome(certainty);
    for (AttemptStatus to : AttemptStatus.values()) {
      for (EvidenceSource source : EvidenceSource.values()) {
        assertThat(AttemptDecision.stored(answer, to, source)).isSameAs(answer);
      }
    }
  }
}
