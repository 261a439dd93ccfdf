package dev.clearway.core.latecharge.domain;

/** What raised a late-charge suspicion. Recorded on the check; never used to decide. */
public enum SuspicionSource {
  /** A channel callback about an order whose flow had ended without payment. */
  CALLBACK,
  /** The periodic sweep: the wallet did not answer "no charge" for an ended order. */
  SWEEP
}
