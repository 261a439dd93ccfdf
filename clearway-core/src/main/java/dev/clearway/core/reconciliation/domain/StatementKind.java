package dev.clearway.core.reconciliation.domain;

/** What one statement line records. */
public enum StatementKind {
  /** Money taken from the payer for a trade order. */
  CHARGE,
  /** Money returned to the payer under a refund order number. */
  REFUND,
  /** A movement the PSP made on its own (chargeback, correction): never matched automatically. */
  ADJUSTMENT
}
