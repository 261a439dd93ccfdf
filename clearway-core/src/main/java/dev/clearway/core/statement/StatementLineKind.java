package dev.clearway.core.statement;

/** What one statement line records. */
public enum StatementLineKind {
  CHARGE,
  REFUND,
  ADJUSTMENT,
  FEE
}
