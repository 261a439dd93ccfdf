package dev.clearway.core.reconciliation.domain;

/** How sure a match between a statement line and a local row is. */
public enum MatchConfidence {
  /** Exact on identity and amount: an automatic repair may follow. */
  CONFIRMED,
  /** Needs a tolerance (fee rounding, FX) or has several candidates: a person confirms it. */
  SUGGESTED,
  /** Nothing matched (a line no local row knows, a local row the statement never showed). */
  NONE
}
