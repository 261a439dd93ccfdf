package dev.clearway.core.channel.domain;

/** Where a piece of provider evidence came from. */
public enum EvidenceSource {
  RESPONSE,
  CALLBACK,
  QUERY,
  RECONCILIATION,
  MANUAL
}
