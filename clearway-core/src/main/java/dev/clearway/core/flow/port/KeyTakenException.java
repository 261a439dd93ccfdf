package dev.clearway.core.flow.port;

/**
 * A creation with a {@link KeyClaim} found the key already claimed by another request: nothing was
 * written; the caller reads the key's record instead.
 */
public final class KeyTakenException extends RuntimeException {
  public KeyTakenException() {
    super("the idempotency key is already claimed", null, false, false);
  }
}
