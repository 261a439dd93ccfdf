package dev.clearway.core.runtime;

import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Mints claim tokens that are unique across threads and processes: the given prefix (an instance
 * id, for people reading the rows), a random nonce drawn once per mint, and a counter. Two replicas
 * configured with the same instance id still never mint the same token, so a lease fences them from
 * each other as it fences two threads of one process.
 */
public final class TokenMint {
  /** Keeps a token within the 96 characters of the lease_owner columns. */
  private static final int PREFIX_MAX = 48;

  private final String base;
  private final AtomicLong counter = new AtomicLong();

  public TokenMint(String prefix) {
    String p = prefix == null || prefix.isBlank() ? "worker" : prefix.strip();
    this.base = p.substring(0, Math.min(PREFIX_MAX, p.length())) + "/" + nonce() + "/";
  }

  /** A token no other mint, in this process or another, returns. */
  public String next() {
    return base + counter.incrementAndGet();
  }

  private static String nonce() {
    return Long.toUnsignedString(new SecureRandom().nextLong(), 36);
  }
}
