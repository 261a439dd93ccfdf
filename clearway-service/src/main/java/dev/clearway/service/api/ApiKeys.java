package dev.clearway.service.api;

import dev.clearway.core.review.PersonNames;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The keys that open the API, by role, read by {@link KeyEntries} and checked once at start: a key
 * that is too short, an operator or approver key that names nobody, or a key given twice stops the
 * start with an {@link InvalidKeyConfiguration}. Only SHA-256 digests are kept; a presented key is
 * digested and compared in constant time. A caller is known by the name its key gives (the
 * merchant, the person), never by the key.
 */
public final class ApiKeys {
  /** The merchant of a merchant key that names none. */
  public static final String DEFAULT_MERCHANT = "default";

  /** The id of a metrics key that names none. */
  public static final String METRICS_ID = "metrics";

  private final Map<Role, List<Entry>> digests = new EnumMap<>(Role.class);
  private final Map<Role, List<String>> generated = new EnumMap<>(Role.class);

  /**
   * A caller identified by its key. {@code id} is, for a MERCHANT, the merchant's name ({@value
   * #DEFAULT_MERCHANT} when the key names none); for an OPERATOR or APPROVER, the person's name
   * (maker/checker compares it); for METRICS, the key's name or {@value #METRICS_ID}. Names are
   * normalised by {@link PersonNames#normalise}: trimmed and lower-case.
   */
  public record Principal(Role role, String id) {}

  /** A configured key: its digest and the id of its principal. */
  private record Entry(byte[] digest, String id) {}

  /**
   * @param configured comma-separated keys per role; a merchant, operator or approver role with
   *     none gets one generated key for this run (read it with {@link #generatedKeys()})
   * @throws InvalidKeyConfiguration when an entry is refused; the message never holds a key
   */
  public ApiKeys(Map<Role, String> configured) {
    SecureRandom random = new SecureRandom();
    Map<String, String> seen = new HashMap<>();
    for (Role role : Role.values()) {
      List<Entry> list = new ArrayList<>();
      for (KeyEntries.KeyEntry e : KeyEntries.parse(role, configured.getOrDefault(role, ""))) {
        byte[] digest = sha256(e.key());
        String where = role.label() + " keys, entry " + e.position();
        String earlier = seen.putIfAbsent(HexFormat.of().formatHex(digest), where);
        if (earlier != null) {
          throw new InvalidKeyConfiguration(
              role, e.position(), "the same key is already configured (" + earlier + ")");
        }
        list.add(new Entry(digest, idOf(role, e.name())));
      }
      if (list.isEmpty() && role.generatedWhenMissing()) {
        byte[] raw = new byte[24];
        random.nextBytes(raw);
        String key = "cw_" + role.label() + "_" + HexFormat.of().formatHex(raw);
        generated.computeIfAbsent(role, r -> new ArrayList<>()).add(key);
        list.add(new Entry(sha256(key), idOf(role, generatedName(role))));
      }
      digests.put(role, List.copyOf(list));
    }
  }

  /**
   * Keys generated because none were configured, for this run only: shown on a terminal at start,
   * or used in-process (the demo), never logged.
   */
  public Map<Role, List<String>> generatedKeys() {
    return generated;
  }

  /** The principal of a presented key, if it opens any role. */
  public Optional<Principal> authenticate(String presented) {
    if (presented == null
        || presented.length() < KeyEntries.MIN_KEY_LENGTH
        || presented.length() > KeyEntries.MAX_KEY_LENGTH) {
      return Optional.empty();
    }
    byte[] digest = sha256(presented);
    Optional<Principal> found = Optional.empty();
    for (Role role : Role.values()) {
      for (Entry candidate : digests.get(role)) {
        // Compare every candidate: the time taken does not depend on which one matched.
        if (MessageDigest.isEqual(candidate.digest(), digest) && found.isEmpty()) {
          found = Optional.of(new Principal(role, candidate.id()));
        }
      }
    }
    return found;
  }

  private static String idOf(Role role, String name) {
    if (name != null) {
      // Merchant names follow the same rule as persons' names: one spelling per name.
      return PersonNames.normalise(name);
    }
    return switch (role) {
      case MERCHANT -> DEFAULT_MERCHANT;
      case METRICS -> METRICS_ID;
      case OPERATOR, APPROVER ->
          throw new IllegalStateException("an " + role.label() + " key without a person");
    };
  }

  /** The person a generated key names: a demo person per role, so the two roles stay apart. */
  private static String generatedName(Role role) {
    return switch (role) {
      case MERCHANT, METRICS -> null;
      case OPERATOR, APPROVER -> "demo-" + role.label();
    };
  }

  static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
