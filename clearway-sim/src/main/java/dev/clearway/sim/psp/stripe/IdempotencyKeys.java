package dev.clearway.sim.psp.stripe;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Stripe's idempotency layer for one account: the first executed response for a key is stored,
 * whatever its status (a 500 included), and replayed for the same key and parameters. The same key
 * with other parameters is refused; the same key while the first request executes is in use.
 * Responses refused before execution are not stored, so the key stays free.
 */
final class IdempotencyKeys {

  /** What an incoming request with a key meets. */
  enum Verdict {
    /** The key is new: the caller executes, then {@link #complete} or {@link #release}s it. */
    EXECUTE,
    /** The key's first request is still executing: 409 {@code idempotency_key_in_use}. */
    IN_USE,
    /** The key was used with other parameters: 400 {@code idempotency_error}. */
    MISMATCH,
    /** A stored response exists: replay it with {@code Idempotent-Replayed: true}. */
    REPLAY
  }

  record Claim(Verdict verdict, SimResponse stored) {}

  private static final class Entry {
    final String fingerprint;
    volatile SimResponse response;

    Entry(String fingerprint) {
      this.fingerprint = fingerprint;
    }
  }

  private final ConcurrentMap<String, Entry> entries = new ConcurrentHashMap<>();

  Claim claim(String key, String fingerprint) {
    Entry mine = new Entry(fingerprint);
    Entry existing = entries.putIfAbsent(key, mine);
    if (existing == null) {
      return new Claim(Verdict.EXECUTE, null);
    }
    SimResponse stored = existing.response;
    if (stored == null) {
      return new Claim(Verdict.IN_USE, null);
    }
    if (!existing.fingerprint.equals(fingerprint)) {
      return new Claim(Verdict.MISMATCH, null);
    }
    return new Claim(Verdict.REPLAY, stored);
  }

  /** Whether a request has ever executed or is executing with this key. */
  boolean known(String key) {
    return entries.containsKey(key);
  }

  /** Stores the response of an execution, or frees the key when nothing executed. */
  void finish(String key, SimResponse response) {
    if (response.executed()) {
      complete(key, response);
    } else {
      release(key);
    }
  }

  void complete(String key, SimResponse response) {
    Entry entry = entries.get(key);
    if (entry != null) {
      entry.response = response;
    }
  }

  void release(String key) {
    entries.remove(key);
  }
}
