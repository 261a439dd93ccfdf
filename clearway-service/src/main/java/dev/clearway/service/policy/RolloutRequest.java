package dev.clearway.service.policy;

/** The share of hash buckets a candidate gets, 1..100 (null is refused as {@code bad_percent}). */
public record RolloutRequest(Integer percent) {}
