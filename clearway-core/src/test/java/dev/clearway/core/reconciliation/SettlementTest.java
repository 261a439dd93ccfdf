package dev.clearway.core.reconciliation;

import static dev.clearway.core.flow.domain.FlowStatus.BIZ_SUCCESS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.reconciliation.decision.Settlement;
import dev.clearway.core.reconciliation.domain.LineOutcome;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.SettlementStatus;
import dev.clearway.core.reconciliation.domain.StatementFact;
import org.junit.jupiter.api.Test;

/**
 * A payment is SETTLED only by an agreeing succeeded charge line; a disagreeing one is MISMATCH.
 */
class SettlementTest {
  private final LocalFact paid = Day.flow(1, BIZ_SUCCESS);
  private final StatementFact line = Day.chargeOf(paid);

  @Test
  void withoutAChargeLineThePaymentIsUnsettled() {
    assertThat(Settlement.of(paid, null, Day.TERMS)).isEqualTo(SettlementStatus.UNSETTLED);
  }

  @Test
  void anAgreeingChargeLineSettlesIt() {
    assertThat(Settlement.of(paid, line, Day.TERMS)).isEqualTo(SettlementStatus.SETTLED);
  }

  @Test
  void aLineStillProcessingLeavesItUnsettled() {
    StatementFact processing =
        new StatementFact(
            line.kind(),
            LineOutcome.PROCESSING,
            line.tradeOrderNo(),
            null,
            line.attemptKey(),
            line.pspReference(),
            line.amountMinor(),
            line.feeMinor(),
            line.currency(),
            line.at(),
            line.account());
    assertThat(Settlement.of(paid, processing, Day.TERMS)).isEqualTo(SettlementStatus.UNSETTLED);
  }

  @Test
  void anotherAmountCurrencyOrFeeIsAMismatch() {
    assertThat(Settlement.of(paid, with(line.amountMinor() + 1, line.feeMinor(), "EUR"), Day.TERMS))
        .isEqualTo(SettlementStatus.MISMATCH);
    assertThat(Settlement.of(paid, with(line.amountMinor(), line.feeMinor(), "USD"), Day.TERMS))
        .isEqualTo(SettlementStatus.MISMATCH);
    assertThat(Settlement.of(paid, with(line.amountMinor(), line.feeMinor() - 1, "EUR"), Day.TERMS))
        .isEqualTo(SettlementStatus.MISMATCH);
  }

  @Test
  void theFeeIsTheRateRoundedHalfUpPlusTheFixedFee() {
    assertThat(Day.TERMS.expectedChargeFee(1_000)).isEqualTo(29 + 30);
    assertThat(Day.TERMS.expectedChargeFee(1_500)).isEqualTo(44 + 30);
    assertThat(Day.TERMS.expectedChargeFee(0)).isEqualTo(30);
  }

  private StatementFact with(long amount, long fee, String currency) {
    return StatementFact.charge(
        line.tradeOrderNo(),
        line.attemptKey(),
        line.pspReference(),
        amount,
        fee,
        currency,
        line.at(),
        line.account());
  }
}
