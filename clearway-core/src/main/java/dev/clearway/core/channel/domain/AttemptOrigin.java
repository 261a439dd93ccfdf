package dev.clearway.core.channel.domain;

/**
 * Why an attempt exists. A transport replay is not here: it re-sends an existing attempt with its
 * own key and parameters and only counts in {@code replay_count}.
 */
public enum AttemptOrigin {
  /** The first attempt of a payment order. */
  INITIAL,
  /** The customer changed something (card, method) after a final failure: new attempt, new key. */
  BUSINESS_RETRY,
  /** The failover guard allowed another channel after a definite failure: new attempt, new key. */
  FAILOVER
}
