package dev.clearway.app.api;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The keys that open the API, by role. Only SHA-256 digests are kept; a presented key is digested
 * and compared in constant time. A principal is named by a digest prefix, never by the key.
 */
public final class ApiKeys {
  private final Map<Role, List<byte[]>> digests = new EnumMap<>(Role.class);
  private final Map<Role, List<String>> generated = new EnumMap<>(Role.class);

  /** A caller identified by its key. */
  public record Principal(Role role, String id) {}

  /**
   * @param configured comma-separated keys per role; a role with none gets one generated key (read
   *     it once with {@link #generatedKeys()} and print it)
   */
  public ApiKeys(Map<Role, String> configured) {
    SecureRandom random = new SecureRandom();
    for (Role role : Role.values()) {
      List<byte[]> list = new ArrayList<>();
      String csv = configured.getOrDefault(role, "");
      for (String key : csv.split(",")) {
        if (!key.isBlank()) {
          list.add(sha256(key.strip()));
        }
      }
      if (list.isEmpty()) {
        byte[] raw = new byte[24];
        random.nextBytes(raw);
        String key = "cw_" + role.name().toLowerCase() + "_" + HexFormat.of().formatHex(raw);
        generated.computeIfAbsent(role, r -> new ArrayList<>()).add(key);
        list.add(sha256(key));
      }
      digests.put(role, list);
    }
  }

  /** Keys generated because none were configured, to be shown once at start. */
  public Map<Role, List<String>> generatedKeys() {
    return generated;
  }

  /** The principal of a presented key, if it opens any role. */
  public Optional<Principal> authenticate(String presented) {
    if (presented == null || presented.isBlank() || presented.length() > 512) {
      return Optional.empty();
    }
    byte[] digest = sha256(presented);
    Optional<Principal> found = Optional.empty();
    for (Role role : Role.values()) {
      for (byte[] candidate : digests.get(role)) {
        // Compare every candidate: the time taken does not depend on which one matched.
        if (MessageDigest.isEqual(candidate, digest) && found.isEmpty()) {
          found =
              Optional.of(
                  new Principal(
                      role,
                      role.name().toLowerCase() + "-" + HexFormat.of().formatHex(digest, 0, 6)));
        }
      }
    }
    return found;
  }

  static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
