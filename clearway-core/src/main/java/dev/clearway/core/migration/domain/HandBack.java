package dev.clearway.core.migration.domain;

/** Why a goal is handed back to the legacy path; the label is the metric's {@code reason}. */
public enum HandBack {
  /** The user is not in Clearway's rollout (percentage, or the deny list). */
  NOT_IN_ROLLOUT("not_in_rollout"),
  /** New-payment intake of the migrated path is rolled back; new goals stay on the legacy path. */
  ROLLED_BACK("rolled_back"),
  /** A legacy in-flight marker exists for the goal. */
  MARKER("marker"),
  /** The legacy payment store has a payment of the goal that must not be paid over. */
  LEGACY_STORE("legacy_store");

  private final String label;

  HandBack(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }
}
