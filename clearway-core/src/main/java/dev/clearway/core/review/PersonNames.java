package dev.clearway.core.review;

import java.util.Locale;
import java.util.Objects;

/**
 * The names of the people who hold operator and approver keys. A name is compared
 * case-insensitively after trimming: {@code "Alice"} and {@code " alice "} are the same person.
 * Names are normalised once, where they enter (the key configuration), and again wherever one is
 * compared or stored, so that maker/checker compares people, never spellings.
 */
public final class PersonNames {
  private PersonNames() {}

  /** The one spelling of a person's name: trimmed and lower-case. */
  public static String normalise(String name) {
    return Objects.requireNonNull(name, "name").strip().toLowerCase(Locale.ROOT);
  }

  /** True when both names are the same person; a missing name is nobody. */
  public static boolean same(String a, String b) {
    return a != null && b != null && normalise(a).equals(normalise(b));
  }
}
