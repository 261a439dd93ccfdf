package dev.clearway.core.flow.decision;

import static dev.clearway.core.testing.Flows.DEADLINE;
import static dev.clearway.core.testing.Flows.NUMBERS;
import static dev.clearway.core.testing.Flows.flow;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.Transitions;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.fact.BizFact;
import dev.clearway.core.flow.fact.BizFact.BizState;
import dev.clearway.core.flow.fact.Certainty;
import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.runtime.Backoff;
import dev.clearway.core.testing.Gen;
import dev.clearway.core.testing.SeededProperty;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Property checks of the safety rules the decision tables must never break, whatever the input.
 * Each runs a few hundred seeded cases; a failure prints the seed that replays it.
 */
class DecisionPropertiesTest {
  private static final PayFlow PAYED = flow(FlowStatus.PAYED);
  private static final int CASES = 500;
  private static final long DAY = 86_400_000L;

  static String code(Random r) {
    return Gen.orNull(r, 0.3, g -> Gen.alpha(g, 0, 12));
  }

  static String attribution(Random r) {
    return Gen.orNull(r, 0.3, g -> g.nextBoolean() ? NUMBERS.tradeOrderNo() : Gen.alpha(g, 1, 20));
  }

  record PaymentAnswer(Certainty certainty, String code, boolean retryable) {}

  /** A payment answer leads to PAY_FAIL only when the wallet definitely failed. */
  @Test
  void payFailOnlyOnDefiniteFailure() {
    SeededProperty.of(
            "payFailOnlyOnDefiniteFailure",
            r -> new PaymentAnswer(Gen.oneOf(r, Certainty.values()), code(r), r.nextBoolean()))
        .check(
            CASES,
            a -> {
              Decision d =
                  PaymentDecision.onPaymentResult(
                      new WalletResult(a.certainty(), a.code(), "req", a.retryable()));
              boolean payFail = d instanceof Decision.Move m && m.to() == FlowStatus.PAY_FAIL;
              assertThat(payFail).isEqualTo(a.certainty() == Certainty.DEFINITE_FAILURE);
              if (d instanceof Decision.Move m) {
                assertThat(Transitions.isLegal(FlowStatus.PAYING, m.to())).isTrue();
              }
            });
  }

  record Unreadable(long offsetMillis, long graceMillis, String attributed, String code) {}

  /** An unreadable business fact is never a reason to refund, at any time after the deadline. */
  @Test
  void unreadableNeverRefunds() {
    SeededProperty.of(
            "unreadableNeverRefunds",
            r ->
                new Unreadable(
                    Gen.between(r, -DAY, 10L * 365 * DAY),
                    Gen.between(r, 0L, 600_000L),
                    attribution(r),
                    code(r)))
        .check(
            CASES,
            u -> {
              Decision d =
                  BusinessDecision.decide(
                      PAYED,
                      new BizFact(BizState.UNREADABLE, u.attributed(), u.code()),
                      DEADLINE.plusMillis(u.offsetMillis()),
                      Duration.ofMillis(u.graceMillis()));
              assertThat(d).isInstanceOf(Decision.Wait.class);
              assertThat(BusinessDecision.isRefund(d)).isFalse();
            });
  }

  record Fact(BizState state, String attributed, long offsetMillis) {}

  /** Done and attributed to this order is BIZ_SUCCESS; nothing else is, and it never refunds. */
  @Test
  void bizSuccessIffDoneForThisOrder() {
    SeededProperty.of(
            "bizSuccessIffDoneForThisOrder",
            r ->
                new Fact(
                    Gen.oneOf(r, BizState.values()),
                    attribution(r),
                    Gen.between(r, -DAY, 10L * 365 * DAY)))
        .check(
            CASES,
            f -> {
              Decision d =
                  BusinessDecision.decide(
                      PAYED,
                      new BizFact(f.state(), f.attributed(), null),
                      DEADLINE.plusMillis(f.offsetMillis()),
                      Duration.ofSeconds(5));
              boolean forThisOrder =
                  f.state() == BizState.DONE && NUMBERS.tradeOrderNo().equals(f.attributed());
              assertThat(d.equals(new Decision.Move(FlowStatus.BIZ_SUCCESS, null)))
                  .isEqualTo(forThisOrder);
              if (forThisOrder) {
                assertThat(BusinessDecision.isRefund(d)).isFalse();
              }
              if (d instanceof Decision.Move m) {
                assertThat(Transitions.isLegal(FlowStatus.PAYED, m.to())).isTrue();
              }
            });
  }

  record Timing(long offsetMillis, long graceMillis) {}

  /** Not done and unattributed: wait strictly before deadline + grace, refund from then on. */
  @Test
  void notDoneRefundsExactlyFromDeadlinePlusGrace() {
    SeededProperty.of(
            "notDoneRefundsExactlyFromDeadlinePlusGrace",
            r -> {
              long grace = Gen.between(r, 0L, 600_000L);
              // A third of the cases sit right at the boundary, where an off-by-one would hide.
              long offset =
                  r.nextInt(3) == 0 ? grace + Gen.between(r, -1L, 1L) : Gen.between(r, -DAY, DAY);
              return new Timing(offset, grace);
            })
        .check(
            CASES,
            t -> {
              Instant now = DEADLINE.plusMillis(t.offsetMillis());
              Decision d =
                  BusinessDecision.decide(
                      PAYED, BizFact.notDone(), now, Duration.ofMillis(t.graceMillis()));
              assertThat(BusinessDecision.isRefund(d))
                  .isEqualTo(t.offsetMillis() >= t.graceMillis());
            });
  }

  record BackoffCase(long flowId, int retryCount, long baseMillis, long capMillis) {}

  /** Backoff stays in [exp/2, exp] for any flow id and retry count. */
  @Test
  void backoffWithinBounds() {
    SeededProperty.of(
            "backoffWithinBounds",
            r ->
                new BackoffCase(
                    r.nextLong(),
                    Gen.between(r, 0, 200),
                    Gen.between(r, 1L, 60_000L),
                    Gen.between(r, 1L, 3_600_000L)))
        .check(
            CASES,
            b -> {
              EngineConfig config =
                  new EngineConfig(
                      Duration.ofSeconds(30),
                      Duration.ofMillis(b.baseMillis()),
                      Duration.ofMillis(b.capMillis()),
                      12,
                      Duration.ofMinutes(30),
                      Duration.ofSeconds(5),
                      100,
                      Duration.ofSeconds(5));
              long exp =
                  b.retryCount() >= 30
                      ? b.capMillis()
                      : Math.min(
                          b.capMillis(), b.baseMillis() * (1L << Math.min(b.retryCount(), 40)));
              Instant now = Instant.parse("2030-01-01T00:00:00Z");
              long delay =
                  Duration.between(
                          now, new Backoff(config).next(b.flowId(), b.retryCount(), false, now))
                      .toMillis();
              assertThat(delay).isBetween(exp / 2, exp);
            });
  }
}
