package dev.clearway.core.domain;

/** Who woke the advancer. Recorded in history; never used to decide a transition. */
public enum TriggerSource {
  SYNC,
  WAKEUP,
  SCANNER,
  CALLBACK,
  MANUAL
}
