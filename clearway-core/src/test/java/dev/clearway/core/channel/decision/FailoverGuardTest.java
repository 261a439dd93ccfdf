package dev.clearway.core.channel.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.decision.FailoverDecision.DenyReason;
import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptOrigin;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.spi.ResultCertainty;
import dev.clearway.core.testing.Choice;
import dev.clearway.core.testing.Gen;
import dev.clearway.core.testing.SeededProperty;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A new attempt on another channel only when the previous attempt is proven failed, its error
 * policy allows failover and no customer action is pending; every failure domain an attempt of the
 * order ran in is excluded from routing.
 */
class FailoverGuardTest {
  private static final ChannelAccount STRIPE_A = account(1L, "stripe-eu");
  private static final ChannelAccount STRIPE_B = account(2L, "stripe-eu");
  private static final ChannelAccount WECHAT_A = account(3L, "wechat-cn");
  private static final ChannelAccount ADYEN_A = account(4L, "adyen-eu");
  private static final Map<Long, ChannelAccount> ACCOUNTS =
      Map.of(1L, STRIPE_A, 2L, STRIPE_B, 3L, WECHAT_A, 4L, ADYEN_A);

  static ChannelAccount account(long id, String failureDomain) {
    return new ChannelAccount(
        id, "psp-" + id, "acct-" + id, failureDomain, Set.of("card"), 10, true);
  }

  static Attempt attempt(
      int seq,
      long accountId,
      AttemptStatus status,
      ResultCertainty certainty,
      boolean failoverEligible,
      boolean customerActionPending) {
    return new Attempt(
        100L + seq,
        "T0000000000000000001",
        seq,
        accountId,
        seq == 1 ? AttemptOrigin.INITIAL : AttemptOrigin.FAILOVER,
        seq == 1 ? null : 100L + seq - 1,
        "cwa-key-" + seq,
        "hash-" + seq,
        null,
        status,
        certainty,
        "CHANNEL_UNAVAILABLE",
        failoverEligible,
        customerActionPending,
        new Attempt.Money(1_999L, "CNY", "card"),
        0,
        0L,
        Instant.parse("2030-01-01T00:00:00Z"));
  }

  /** A definite, eligible failure without customer action on the given account. */
  static Attempt definitelyFailed(int seq, long accountId) {
    return attempt(
        seq, accountId, AttemptStatus.FAILED, ResultCertainty.DEFINITE_FAILURE, true, false);
  }

  static FailoverDecision evaluate(Attempt... attempts) {
    return FailoverGuard.evaluate(List.of(attempts), ACCOUNTS);
  }

  @Test
  void theFirstAttemptOfAnOrderIsRoutedWithNothingExcluded() {
    assertThat(FailoverGuard.evaluate(List.of(), ACCOUNTS))
        .isEqualTo(new FailoverDecision(true, null, Set.of()));
  }

  @ParameterizedTest
  @EnumSource(
      value = ResultCertainty.class,
      names = {"DEFINITE_FAILURE", "NO_SIDE_EFFECT"})
  void aDefiniteEligibleFailureAllowsFailoverOutsideItsFailureDomain(ResultCertainty certainty) {
    FailoverDecision decision =
        evaluate(attempt(1, STRIPE_A.id(), AttemptStatus.FAILED, certainty, true, false));
    assertThat(decision).isEqualTo(new FailoverDecision(true, null, Set.of("stripe-eu")));
  }

  // ---- the order of the checks, as a table ---------------------------------------------------

  static Stream<Arguments> table() {
    return Stream.of(
        // status, certainty, eligible, customer action -> reason (null: allowed)
        Arguments.of(AttemptStatus.FAILED, ResultCertainty.DEFINITE_FAILURE, true, false, null),
        Arguments.of(AttemptStatus.FAILED, ResultCertainty.NO_SIDE_EFFECT, true, false, null),
        Arguments.of(
            AttemptStatus.UNKNOWN,
            ResultCertainty.UNKNOWN,
            true,
            false,
            DenyReason.PREVIOUS_ATTEMPT_NOT_PROVEN_FAILED),
        Arguments.of(
            AttemptStatus.PENDING,
            ResultCertainty.PENDING,
            true,
            false,
            DenyReason.PREVIOUS_ATTEMPT_NOT_PROVEN_FAILED),
        Arguments.of(
            AttemptStatus.CREATED,
            ResultCertainty.DEFINITE_FAILURE,
            true,
            false,
            DenyReason.PREVIOUS_ATTEMPT_NOT_PROVEN_FAILED),
        Arguments.of(
            AttemptStatus.SUCCEEDED,
            ResultCertainty.CONFIRMED_SUCCESS,
            true,
            false,
            DenyReason.PREVIOUS_ATTEMPT_NOT_PROVEN_FAILED),
        // a FAILED row whose evidence is not a failure proves nothing
        Arguments.of(
            AttemptStatus.FAILED,
            ResultCertainty.UNKNOWN,
            true,
            false,
            DenyReason.PREVIOUS_ATTEMPT_NOT_PROVEN_FAILED),
        Arguments.of(
            AttemptStatus.FAILED,
            ResultCertainty.PENDING,
            true,
            false,
            DenyReason.PREVIOUS_ATTEMPT_NOT_PROVEN_FAILED),
        Arguments.of(
            AttemptStatus.FAILED,
            ResultCertainty.CONFIRMED_SUCCESS,
            true,
            false,
            DenyReason.PREVIOUS_ATTEMPT_NOT_PROVEN_FAILED),
        // not proven failed is the first reason, whatever the policy says
        Arguments.of(
            AttemptStatus.UNKNOWN,
            ResultCertainty.UNKNOWN,
            false,
            true,
            DenyReason.PREVIOUS_ATTEMPT_NOT_PROVEN_FAILED),
        Arguments.of(
            AttemptStatus.FAILED,
            ResultCertainty.DEFINITE_FAILURE,
            false,
            false,
            DenyReason.ERROR_POLICY_DENIES_FAILOVER),
        // a declined card stays declined even when the customer is asked to act
        Arguments.of(
            AttemptStatus.FAILED,
            ResultCertainty.DEFINITE_FAILURE,
            false,
            true,
            DenyReason.ERROR_POLICY_DENIES_FAILOVER),
        Arguments.of(
            AttemptStatus.FAILED,
            ResultCertainty.DEFINITE_FAILURE,
            true,
            true,
            DenyReason.CUSTOMER_ACTION_REQUIRED),
        Arguments.of(
            AttemptStatus.FAILED,
            ResultCertainty.NO_SIDE_EFFECT,
            true,
            true,
            DenyReason.CUSTOMER_ACTION_REQUIRED));
  }

  @ParameterizedTest(name = "{0} {1} eligible={2} customerAction={3} -> {4}")
  @MethodSource("table")
  void theGuardTable(
      AttemptStatus status,
      ResultCertainty certainty,
      boolean eligible,
      boolean customerAction,
      DenyReason reason) {
    FailoverDecision decision =
        evaluate(attempt(1, STRIPE_A.id(), status, certainty, eligible, customerAction));
    FailoverDecision expected =
        reason == null
            ? FailoverDecision.allow(Set.of("stripe-eu"))
            : FailoverDecision.deny(reason);
    assertThat(decision).isEqualTo(expected);
  }

  @Test
  void failoverIsDeniedWhileThePreviousAttemptIsNotProvenFailed() {
    for (AttemptStatus status : AttemptStatus.values()) {
      for (ResultCertainty certainty : ResultCertainty.values()) {
        boolean provenFailed =
            status == AttemptStatus.FAILED
                && (certainty == ResultCertainty.DEFINITE_FAILURE
                    || certainty == ResultCertainty.NO_SIDE_EFFECT);
        FailoverDecision decision =
            evaluate(definitelyFailed(1, 1L), attempt(2, 3L, status, certainty, true, false));
        assertThat(decision.allowed()).as("%s %s", status, certainty).isEqualTo(provenFailed);
        if (!provenFailed) {
          assertThat(decision.reason())
              .as("%s %s", status, certainty)
              .isEqualTo(DenyReason.PREVIOUS_ATTEMPT_NOT_PROVEN_FAILED);
          assertThat(decision.excludedDomains()).isEmpty();
        }
      }
    }
  }

  // ---- which attempt decides, which domains are excluded ------------------------------------

  @Test
  void onlyTheLatestAttemptDecides() {
    Attempt declined =
        attempt(1, 1L, AttemptStatus.FAILED, ResultCertainty.DEFINITE_FAILURE, false, false);
    assertThat(evaluate(declined, definitelyFailed(2, 3L)).allowed()).isTrue();
    assertThat(evaluate(definitelyFailed(1, 3L), declined).reason())
        .isEqualTo(DenyReason.ERROR_POLICY_DENIES_FAILOVER);
  }

  @Test
  void everyFailureDomainAnAttemptOfTheOrderRanInIsExcluded() {
    assertThat(evaluate(definitelyFailed(1, 1L), definitelyFailed(2, 3L)))
        .isEqualTo(FailoverDecision.allow(Set.of("stripe-eu", "wechat-cn")));
  }

  @Test
  void twoAccountsOfOneFailureDomainExcludeItOnce() {
    assertThat(evaluate(definitelyFailed(1, 1L), definitelyFailed(2, 2L)).excludedDomains())
        .containsExactly("stripe-eu");
  }

  @Test
  void anAccountNoLongerConfiguredExcludesNothing() {
    assertThat(evaluate(definitelyFailed(1, 99L), definitelyFailed(2, 4L)))
        .isEqualTo(FailoverDecision.allow(Set.of("adyen-eu")));
  }

  @Test
  void anAllowedDecisionKeepsItsOwnCopyOfTheExcludedDomains() {
    Set<String> domains = new HashSet<>(Set.of("stripe-eu"));
    FailoverDecision decision = FailoverDecision.allow(domains);
    domains.add("wechat-cn");
    assertThat(decision.excludedDomains()).containsExactly("stripe-eu");
  }

  // ---- the same rules over seeded histories --------------------------------------------------

  record History(List<Attempt> attempts) {
    Attempt last() {
      return attempts.get(attempts.size() - 1);
    }
  }

  static History history(Random r) {
    Choice<AttemptStatus> status =
        Choice.<AttemptStatus>of()
            .or(4, AttemptStatus.FAILED)
            .or(1, AttemptStatus.UNKNOWN)
            .or(1, AttemptStatus.PENDING)
            .or(1, AttemptStatus.CREATED)
            .or(1, AttemptStatus.SUCCEEDED);
    int size = Gen.between(r, 1, 5);
    List<Attempt> attempts = new ArrayList<>();
    for (int seq = 1; seq <= size; seq++) {
      attempts.add(
          attempt(
              seq,
              Gen.between(r, 1L, 5L),
              status.apply(r),
              Gen.oneOf(r, ResultCertainty.values()),
              r.nextInt(4) > 0,
              r.nextInt(4) == 0));
    }
    return new History(attempts);
  }

  @Test
  void failoverIsAllowedExactlyAfterAProvenEligibleFailureWithoutCustomerAction() {
    SeededProperty.of("failoverGuard", FailoverGuardTest::history, h -> h.attempts().size())
        .check(
            300,
            h -> {
              Attempt last = h.last();
              boolean provenFailed =
                  last.status() == AttemptStatus.FAILED
                      && (last.certainty() == ResultCertainty.DEFINITE_FAILURE
                          || last.certainty() == ResultCertainty.NO_SIDE_EFFECT);
              FailoverDecision decision = FailoverGuard.evaluate(h.attempts(), ACCOUNTS);
              assertThat(decision.allowed())
                  .isEqualTo(
                      provenFailed && last.failoverEligible() && !last.customerActionPending());
              if (decision.allowed()) {
                Set<String> ranIn = new HashSet<>();
                for (Attempt a : h.attempts()) {
                  if (ACCOUNTS.containsKey(a.channelAccountId())) {
                    ranIn.add(ACCOUNTS.get(a.channelAccountId()).failureDomain());
                  }
                }
                assertThat(decision.excludedDomains()).isEqualTo(ranIn);
                assertThat(decision.reason()).isNull();
              } else {
                assertThat(decision.reason()).isNotNull();
                assertThat(decision.excludedDomains()).isEmpty();
              }
            });
  }
}
