package dev.clearway.core.flow.port;

import java.time.Instant;
import java.util.Objects;

/**
 * The claim of a caller's idempotency key, written in the same commit as the attempt it answers
 * (new or the goal's live one): the key is held ({@code IN_FLIGHT}, bound to that attempt) until
 * {@code lockedUntil}, and either both the key and the attempt are written or neither is.
 */
public record KeyClaim(String merchant, String key, String requestHash, Instant lockedUntil) {
  public KeyClaim {
    Objects.requireNonNull(merchant, "merchant");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(requestHash, "requestHash");
    Objects.requireNonNull(lockedUntil, "lockedUntil");
  }
}
