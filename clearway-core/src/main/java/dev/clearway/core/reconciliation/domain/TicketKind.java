package dev.clearway.core.reconciliation.domain;

/**
 * How a person closes a difference that waits for a person. Either way the difference ends
 * RESOLVED; nothing local is written by the command itself, and the evidence stays with it.
 */
public enum TicketKind {
  /** Repaired outside Clearway; the evidence names the PSP's or finance's reference. */
  RESOLVE_REPAIRED_OUTSIDE,
  /** Accepted as it is (e.g. a fee difference written off); the evidence names the decision. */
  ACCEPT_DIFFERENCE
}
