package dev.clearway.core.migration.domain;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Set;

/**
 * Which users Clearway serves: the deny list first, then the allow list, then a stable bucket of
 * the user (SHA-256 of {@code merchant:userId}, 0 to 9999) below the share in basis points. A
 * user's bucket never changes, so raising the share only adds users, and each user stays on one
 * side.
 *
 * @param basisPoints the share of users served, 0 (none) to 10000 (all)
 * @param allow users always served, as {@code merchant:userId}
 * @param deny users never served, as {@code merchant:userId}; wins over the allow list
 */
public record Rollout(int basisPoints, Set<String> allow, Set<String> deny) {
  public static final int ALL = 10_000;

  public Rollout {
    if (basisPoints < 0 || basisPoints > ALL) {
      throw new IllegalArgumentException("rollout basis points must be within 0 and 10000");
    }
    allow = Set.copyOf(allow);
    deny = Set.copyOf(deny);
  }

  public static Rollout everyone() {
    return new Rollout(ALL, Set.of(), Set.of());
  }

  /** Whether the user of {@code merchant} is served by Clearway. */
  public boolean includes(String merchant, long userId) {
    String user = merchant + ":" + userId;
    if (deny.contains(user)) {
      return false;
    }
    return allow.contains(user) || bucket(merchant, userId) < basisPoints;
  }

  /** The user's stable bucket, 0 to 9999. */
  public static int bucket(String merchant, long userId) {
    byte[] hash = sha256((merchant + ":" + userId).getBytes(StandardCharsets.UTF_8));
    long top = 0;
    for (int i = 0; i < 8; i++) {
      top = (top << 8) | (hash[i] & 0xff);
    }
    return (int) Math.floorMod(top, (long) ALL);
  }

  private static byte[] sha256(byte[] in) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(in);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
