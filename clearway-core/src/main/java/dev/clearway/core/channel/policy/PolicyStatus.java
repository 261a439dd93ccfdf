package dev.clearway.core.channel.policy;

/**
 * The life of one stored policy version: DRAFT, then VALIDATED or REJECTED, then CANDIDATE (gray
 * rollout), then ACTIVE, and finally RETIRED (superseded, kept as last known good) or ROLLED_BACK.
 * At most one version is ACTIVE and at most one is CANDIDATE at any time.
 */
public enum PolicyStatus {
  DRAFT,
  VALIDATED,
  REJECTED,
  CANDIDATE,
  ACTIVE,
  RETIRED,
  ROLLED_BACK
}
