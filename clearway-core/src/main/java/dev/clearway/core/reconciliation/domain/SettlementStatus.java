package dev.clearway.core.reconciliation.domain;

/** Where a payment stands against the PSP's statement. */
public enum SettlementStatus {
  /** Not on the statement yet. */
  UNSETTLED,
  /** On the statement with the same amount, currency and the agreed fee. */
  SETTLED,
  /** On the statement, but amount, currency or fee disagree. */
  MISMATCH
}
