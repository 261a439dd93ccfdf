package dev.clearway.core.channel.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.decision.StatementSettlementDecision.Coverage;
import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.reconciliation.domain.LineOutcome;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.domain.StatementKind;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An attempt's result from its statement lines and how far the imported statements cover it. */
class StatementSettlementDecisionTest {
  private static final Instant NOW = Instant.parse("2026-12-05T00:00:00Z");
  private static final Instant SETTLED = Instant.parse("2026-12-03T00:00:00Z");
  private static final Coverage FULL = new Coverage(true, true, SETTLED);
  private final Attempt attempt = AttemptDecisionTest.attempt(AttemptStatus.UNKNOWN);
  private final long amount = attempt.money().amount();
  private final String currency = attempt.money().currency();

  private StatementFact charge(String key, String trade, long amount, String currency) {
    return StatementFact.charge(trade, key, "pi_1", amount, 30, currency, NOW, "acct");
  }

  private StatementVerdict decide(List<StatementFact> lines, Coverage coverage) {
    return StatementSettlementDecision.decide(attempt, lines, coverage, NOW);
  }

  @Test
  void theAttemptsChargeLineForItsAmountIsACharge() {
    StatementFact line = charge(attempt.providerIdempotencyKey(), null, amount, currency);
    assertThat(decide(List.of(line), new Coverage(false, false, null)))
        .isEqualTo(new StatementVerdict.Charged(line));
    StatementFact lower =
        charge(
            attempt.providerIdempotencyKey(),
            null,
            amount,
            currency.toLowerCase(java.util.Locale.ROOT));
    assertThat(decide(List.of(lower), FULL)).isEqualTo(new StatementVerdict.Charged(lower));
  }

  @Test
  void anotherAmountOrCurrencyOrSeveralChargesGoToAPerson() {
    String key = attempt.providerIdempotencyKey();
    assertThat(decide(List.of(charge(key, null, amount + 1, currency)), FULL))
        .isEqualTo(new StatementVerdict.ToPerson(StatementSettlementDecision.AMOUNT_DIFFERS));
    assertThat(decide(List.of(charge(key, null, amount, "XXX")), FULL))
        .isEqualTo(new StatementVerdict.ToPerson(StatementSettlementDecision.CURRENCY_DIFFERS));
    assertThat(
            decide(
                List.of(charge(key, null, amount, currency), charge(key, null, amount, currency)),
                FULL))
        .isEqualTo(new StatementVerdict.ToPerson(StatementSettlementDecision.SEVERAL_CHARGES));
  }

  @Test
  void aRefundWithoutTheChargeOrAKeylessChargeOfTheOrderGoToAPerson() {
    StatementFact refund =
        new StatementFact(
            StatementKind.REFUND,
            LineOutcome.SUCCEEDED,
            attempt.tradeOrderNo(),
            "R1",
            attempt.providerIdempotencyKey(),
            "re_1",
            amount,
            0,
            currency,
            NOW,
            "acct");
    assertThat(decide(List.of(refund), FULL))
        .isEqualTo(new StatementVerdict.ToPerson(StatementSettlementDecision.NO_CHARGE_LINE));
    assertThat(decide(List.of(charge(null, attempt.tradeOrderNo(), amount, currency)), FULL))
        .isEqualTo(new StatementVerdict.ToPerson(StatementSettlementDecision.UNATTRIBUTED));
  }

  @Test
  void anotherAttemptsLineIsNotThisOnes() {
    StatementFact other = charge("another-key", attempt.tradeOrderNo(), amount, currency);
    assertThat(decide(List.of(other), FULL)).isEqualTo(new StatementVerdict.NotCharged());
  }

  @Test
  void silenceProvesNothingUntilBothDaysAreInAndTheWindowHasPassed() {
    assertThat(decide(List.of(), new Coverage(true, true, null)))
        .isEqualTo(new StatementVerdict.Wait(StatementSettlementDecision.NO_TERMS));
    assertThat(decide(List.of(), new Coverage(true, false, SETTLED)))
        .isEqualTo(new StatementVerdict.Wait(StatementSettlementDecision.NOT_IMPORTED));
    assertThat(decide(List.of(), new Coverage(false, true, SETTLED)))
        .isEqualTo(new StatementVerdict.Wait(StatementSettlementDecision.NOT_IMPORTED));
    assertThat(decide(List.of(), new Coverage(true, true, NOW.plusSeconds(1))))
        .isEqualTo(new StatementVerdict.Wait(StatementSettlementDecision.WINDOW_OPEN));
    assertThat(decide(List.of(), new Coverage(true, true, NOW)))
        .isEqualTo(new StatementVerdict.NotCharged());
  }

  @Test
  void aChargeStillProcessingWaits() {
    StatementFact processing =
        new StatementFact(
            StatementKind.CHARGE,
            LineOutcome.PROCESSING,
            null,
            null,
            attempt.providerIdempotencyKey(),
            "pi_1",
            amount,
            0,
            currency,
            NOW,
            "acct");
    assertThat(decide(List.of(processing), FULL))
        .isEqualTo(new StatementVerdict.Wait(StatementSettlementDecision.CHARGE_PROCESSING));
  }
}
