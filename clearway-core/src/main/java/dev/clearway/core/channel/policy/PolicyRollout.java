package dev.clearway.core.channel.policy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Gray rollout by stable hash bucket. A key's bucket (0..99) is derived from the SHA-256 of the key
 * alone, so the same key always lands in the same bucket, on every node and across restarts;
 * raising the percent only adds buckets, so a key that was on the candidate stays on it.
 */
public final class PolicyRollout {

  public static final int BUCKETS = 100;

  private PolicyRollout() {}

  /** The bucket 0..99 of {@code attemptKey}: the first 8 bytes of its SHA-256, modulo 100. */
  public static int bucket(String attemptKey) {
    byte[] digest = sha256().digest(attemptKey.getBytes(StandardCharsets.UTF_8));
    long head = 0;
    for (int i = 0; i < Long.BYTES; i++) {
      head = (head << 8) | (digest[i] & 0xFF);
    }
    return (int) Long.remainderUnsigned(head, BUCKETS);
  }

  /** Whether {@code attemptKey} is on the candidate when {@code percent} of buckets are. */
  public static boolean onCandidate(String attemptKey, int percent) {
    return bucket(attemptKey) < percent;
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by the JDK", e);
    }
  }
}
