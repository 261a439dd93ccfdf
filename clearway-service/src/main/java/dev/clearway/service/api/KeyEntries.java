package dev.clearway.service.api;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads one role's comma-separated key list. An entry {@code name=key} gives a name only when the
 * part before the first {@code =} is a valid name (letters, digits, {@code -}, {@code _}, {@code
 * .}, 1 to 64 characters) and the part after it is at least {@value #MIN_KEY_LENGTH} characters;
 * otherwise the whole entry is the key, so a base64 key ending in {@code ==} is read whole. A key
 * under {@value #MIN_KEY_LENGTH} or over {@value #MAX_KEY_LENGTH} characters, a key with blanks or
 * non-ASCII characters, and an operator or approver key that names no person are refused.
 */
final class KeyEntries {
  static final int MIN_KEY_LENGTH = 16;
  static final int MAX_KEY_LENGTH = 512;

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  /** One entry of the list: its 1-based position, the name it gives (or null) and the key. */
  record KeyEntry(int position, String name, String key) {}

  private KeyEntries() {}

  static List<KeyEntry> parse(Role role, String csv) {
    List<KeyEntry> entries = new ArrayList<>();
    String[] items = csv == null ? new String[0] : csv.split(",", -1);
    for (int i = 0; i < items.length; i++) {
      String item = items[i].strip();
      if (item.isEmpty()) {
        // "a,b," and surrounding blanks: an empty item configures nothing.
        continue;
      }
      entries.add(entry(role, i + 1, item));
    }
    return entries;
  }

  private static KeyEntry entry(Role role, int position, String item) {
    String name = null;
    String key = item;
    boolean namedShortKey = false;
    int eq = item.indexOf('=');
    if (eq > 0) {
      String before = item.substring(0, eq).strip();
      String after = item.substring(eq + 1).strip();
      if (NAME.matcher(before).matches()) {
        if (after.length() >= MIN_KEY_LENGTH) {
          name = before;
          key = after;
        } else {
          namedShortKey = true;
        }
      }
    }
    if (key.length() < MIN_KEY_LENGTH || (namedShortKey && role.namesAPerson())) {
      // A person's entry "alice=short" is read whole and would name nobody: the short key is
      // what to fix.
      throw new InvalidKeyConfiguration(
          role,
          position,
          "a key must be at least "
              + MIN_KEY_LENGTH
              + " characters (in name=key, the part after '=')");
    }
    if (key.length() > MAX_KEY_LENGTH) {
      throw new InvalidKeyConfiguration(
          role, position, "a key must be at most " + MAX_KEY_LENGTH + " characters");
    }
    if (!key.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      throw new InvalidKeyConfiguration(
          role, position, "a key holds visible ASCII characters only, no blanks");
    }
    if (name == null && role.namesAPerson()) {
      throw new InvalidKeyConfiguration(
          role,
          position,
          "an "
              + role.label()
              + " key must name its person: write it as name=key (the name: letters, digits,"
              + " '-', '_', '.', at most 64)");
    }
    return new KeyEntry(position, name, key);
  }
}
