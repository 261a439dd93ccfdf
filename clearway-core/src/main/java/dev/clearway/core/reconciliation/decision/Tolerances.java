package dev.clearway.core.reconciliation.decision;

/**
 * How far a statement may be from the local side and still be the same payment, as a suggestion for
 * a person (never an automatic repair).
 *
 * @param amountMinor an amount this close to the local one is a suggested match (FX, rounding)
 * @param feeMinor a fee this close to the terms' is a fee rounding: a suggested match
 */
public record Tolerances(long amountMinor, long feeMinor) {
  public Tolerances {
    if (amountMinor < 0 || feeMinor < 0) {
      throw new IllegalArgumentException("a tolerance is not negative");
    }
  }

  public static Tolerances none() {
    return new Tolerances(0, 0);
  }
}
