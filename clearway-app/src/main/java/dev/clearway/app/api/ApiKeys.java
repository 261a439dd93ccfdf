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
  private final Map<Role, List<Entry>> digests = new EnumMap<>(Role.class);
  private final Map<Role, List<String>> generated = new EnumMap<>(Role.class);

  /** A caller identified by its key; {@code id} names the person (maker/checker compares it). */
  public record Principal(Role role, String id) {}

  /** A configured key: its digest and the person it names. */
  private record Entry(byte[] digest, String person) {}

  /**
   * @param configured comma-separated keys per role; a role with none gets one generated key (read
   *     it once with {@link #generatedKeys()} and print it)
   */
  public ApiKeys(Map<Role, String> configured) {
    SecureRandom random = new SecureRandom();
    for (Role role : Role.values()) {
      List<Entry> list = new ArrayList<>();
      String csv = configured.getOrDefault(role, "");
      for (String item : csv.split(",")) {
        if (item.isBlank()) {
          continue;
        }
        int eq = item.indexOf('=');
        String key = (eq > 0 ? item.substring(eq + 1) : item).strip();
        byte[] digest = sha256(key);
        String person = eq > 0 ? item.substring(0, eq).strip() : anonymous(role, digest);
        list.add(new Entry(digest, person));
      }
      if (list.isEmpty()) {
        byte[] raw = new byte[24];
        random.nextBytes(raw);
        String key = "cw_" + role.name().toLowerCase() + "_" + HexFormat.of().formatHex(raw);
        generated.computeIfAbsent(role, r -> new ArrayList<>()).add(key);
        byte[] digest = sha256(key);
        list.add(new Entry(digest, anonymous(role, digest)));
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
      for (Entry candidate : digests.get(role)) {
        // Compare every candidate: the time taken does not depend on which one matched.
        if (MessageDigest.isEqual(candidate.digest(), digest) && found.isEmpty()) {
          found = Optional.of(new Principal(role, candidate.person()));
        }
      }
    }
    return found;
  }

  private static String anonymous(Role role, byte[] digest) {
    return role.name().toLowerCase() + "-" + HexFormat.of().formatHex(digest, 0, 6);
  }

  static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
