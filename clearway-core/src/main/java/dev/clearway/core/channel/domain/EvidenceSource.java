package dev.clearway.core.channel.domain;

/** Where a piece of provider evidence came from (seed 001 section 5). */
public enum EvidenceSource {
  RESPONSE,
  CALLBACK,
  QUERY,
  RECONCILIATION,
  MANUAL
}
