package dev.clearway.core.decision;

import static dev.clearway.core.testing.Flows.DEADLINE;
import static dev.clearway.core.testing.Flows.NUMBERS;
import static dev.clearway.core.testing.Flows.flow;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.domain.FlowStatus;
import dev.clearway.core.domain.PayFlow;
import dev.clearway.core.domain.Transitions;
import dev.clearway.core.engine.Backoff;
import dev.clearway.core.engine.EngineConfig;
import dev.clearway.core.fact.BizFact;
import dev.clearway.core.fact.BizFact.BizState;
import dev.clearway.core.fact.Certainty;
import dev.clearway.core.fact.WalletResult;
import java.time.Duration;
import java.time.Instant;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/** Property checks of the safety rules the decision tables must never break, whatever the input. */
class DecisionPropertiesTest {
  private static final PayFlow PAYED = flow(FlowStatus.PAYED);

  @Provide
  Arbitrary<String> codes() {
    return Arbitraries.strings().alpha().ofMaxLength(12).injectNull(0.3);
  }

  @Provide
  Arbitrary<String> attributions() {
    return Arbitraries.oneOf(
            Arbitraries.just(NUMBERS.tradeOrderNo()),
            Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(20))
        .injectNull(0.3);
  }

  /** A payment answer leads to PAY_FAIL only when the wallet definitely failed. */
  @Property
  void payFailOnlyOnDefiniteFailure(
      @ForAll Certainty certainty, @ForAll("codes") String code, @ForAll boolean retryable) {
    Decision d =
        PaymentDecision.onPaymentResult(new WalletResult(certainty, code, "req", retryable));
    boolean payFail = d instanceof Decision.Move m && m.to() == FlowStatus.PAY_FAIL;
    assertThat(payFail).isEqualTo(certainty == Certainty.DEFINITE_FAILURE);
    if (d instanceof Decision.Move m) {
      assertThat(Transitions.isLegal(FlowStatus.PAYING, m.to())).isTrue();
    }
  }

  /** An unreadable business fact is never a reason to refund, at any time after the deadline. */
  @Property
  void unreadableNeverRefunds(
      @ForAll @LongRange(min = -86_400_000L, max = 10L * 365 * 86_400_000L) long offsetMillis,
      @ForAll @LongRange(min = 0, max = 600_000) long graceMillis,
      @ForAll("attributions") String attributed,
      @ForAll("codes") String code) {
    Decision d =
        BusinessDecision.decide(
            PAYED,
            new BizFact(BizState.UNREADABLE, attributed, code),
            DEADLINE.plusMillis(offsetMillis),
            Duration.ofMillis(graceMillis));
    assertThat(d).isInstanceOf(Decision.Wait.class);
    assertThat(BusinessDecision.isRefund(d)).isFalse();
  }

  /** Done and attributed to this order is BIZ_SUCCESS; nothing else is, and it never refunds. */
  @Property
  void bizSuccessIffDoneForThisOrder(
      @ForAll BizState state,
      @ForAll("attributions") String attributed,
      @ForAll @LongRange(min = -86_400_000L, max = 10L * 365 * 86_400_000L) long offsetMillis) {
    Decision d =
        BusinessDecision.decide(
            PAYED,
            new BizFact(state, attributed, null),
            DEADLINE.plusMillis(offsetMillis),
            Duration.ofSeconds(5));
    boolean forThisOrder = state == BizState.DONE && NUMBERS.tradeOrderNo().equals(attributed);
    assertThat(d.equals(new Decision.Move(FlowStatus.BIZ_SUCCESS, null))).isEqualTo(forThisOrder);
    if (forThisOrder) {
      assertThat(BusinessDecision.isRefund(d)).isFalse();
    }
    if (d instanceof Decision.Move m) {
      assertThat(Transitions.isLegal(FlowStatus.PAYED, m.to())).isTrue();
    }
  }

  /** Not done and unattributed: wait strictly before deadline + grace, refund from then on. */
  @Property
  void notDoneRefundsExactlyFromDeadlinePlusGrace(
      @ForAll @LongRange(min = -86_400_000L, max = 86_400_000L) long offsetMillis,
      @ForAll @LongRange(min = 0, max = 600_000) long graceMillis) {
    Instant now = DEADLINE.plusMillis(offsetMillis);
    Decision d =
        BusinessDecision.decide(PAYED, BizFact.notDone(), now, Duration.ofMillis(graceMillis));
    assertThat(BusinessDecision.isRefund(d)).isEqualTo(offsetMillis >= graceMillis);
  }

  /** Backoff stays in [exp/2, exp] for any flow id and retry count. */
  @Property
  void backoffWithinBounds(
      @ForAll long flowId,
      @ForAll @IntRange(min = 0, max = 200) int retryCount,
      @ForAll @LongRange(min = 1, max = 60_000) long baseMillis,
      @ForAll @LongRange(min = 1, max = 3_600_000) long capMillis) {
    EngineConfig config =
        new EngineConfig(
            Duration.ofSeconds(30),
            Duration.ofMillis(baseMillis),
            Duration.ofMillis(capMillis),
            12,
            Duration.ofMinutes(30),
            Duration.ofSeconds(5),
            100,
            Duration.ofSeconds(5));
    long exp =
        retryCount >= 30
            ? capMillis
            : Math.min(capMillis, baseMillis * (1L << Math.min(retryCount, 40)));
    Instant now = Instant.parse("2030-01-01T00:00:00Z");
    long delay =
        Duration.between(now, new Backoff(config).next(flowId, retryCount, false, now)).toMillis();
    assertThat(delay).isBetween(exp / 2, exp);
  }
}
