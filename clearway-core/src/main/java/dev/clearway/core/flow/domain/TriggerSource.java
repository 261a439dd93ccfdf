package dev.clearway.core.flow.domain;

/** Who woke the advancer. Recorded in history; never used to decide a transition. */
public enum TriggerSource {
  SYNC,
  WAKEUP,
  SCANNER,
  CALLBACK,
  MANUAL,
  /** A request on the service's API that acts on the flow itself (cancel). */
  API,
  /** An automatic repair of a difference found against the PSP's statement. */
  RECONCILIATION
}
