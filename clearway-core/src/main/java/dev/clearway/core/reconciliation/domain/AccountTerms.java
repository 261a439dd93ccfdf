package dev.clearway.core.reconciliation.domain;

import java.time.Duration;
import java.util.Objects;

/**
 * What was agreed with the PSP for one account: how long a movement may take to appear on its
 * statement, and the fee it may take.
 *
 * @param feeRatePpm the proportional fee in parts per million of the amount (2.9% = 29_000)
 * @param fixedFeeMinor the fixed fee per charge, in minor units
 */
public record AccountTerms(
    String account,
    Duration settlementWindow,
    long feeRatePpm,
    long fixedFeeMinor,
    String currency) {

  public AccountTerms {
    Objects.requireNonNull(account, "account");
    Objects.requireNonNull(settlementWindow, "settlementWindow");
    Objects.requireNonNull(currency, "currency");
    if (settlementWindow.isNegative() || feeRatePpm < 0 || fixedFeeMinor < 0) {
      throw new IllegalArgumentException("negative terms for account " + account);
    }
  }

  /** The fee a charge of {@code amountMinor} should cost, rounded half up to a minor unit. */
  public long expectedChargeFee(long amountMinor) {
    return Math.addExact(
        Math.floorDiv(Math.multiplyExact(amountMinor, feeRatePpm) + 500_000, 1_000_000),
        fixedFeeMinor);
  }
}
