package dev.clearway.core.statement;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;

/**
 * Reads an ISO-8601 instant as {@link Instant#parse} does, with a direct path for the form
 * statements write on every line ({@code yyyy-MM-ddTHH:mm:ss[.f{1,9}]Z}): the same instant, without
 * the formatter's per-call objects. Any other text, valid or not, is left to {@link Instant#parse}
 * (which accepts or refuses it), so both answer alike for every input.
 */
public final class IsoInstants {
  private static final int SHORTEST = "2000-01-01T00:00:00Z".length();

  private IsoInstants() {}

  /**
   * @throws DateTimeParseException when the text is not an instant {@link Instant#parse} accepts
   */
  public static Instant parse(CharSequence text) {
    Instant fast = direct(text);
    return fast != null ? fast : Instant.parse(text);
  }

  /** The instant of the plain UTC form; null for any other text (valid or not). */
  private static Instant direct(CharSequence s) {
    int n = s.length();
    if (n < SHORTEST
        || s.charAt(4) != '-'
        || s.charAt(7) != '-'
        || s.charAt(10) != 'T'
        || s.charAt(13) != ':'
        || s.charAt(16) != ':'
        || s.charAt(n - 1) != 'Z') {
      return null;
    }
    int year = digits(s, 0, 4);
    int month = digits(s, 5, 2);
    int day = digits(s, 8, 2);
    int hour = digits(s, 11, 2);
    int minute = digits(s, 14, 2);
    int second = digits(s, 17, 2);
    int nanos = fraction(s, 19, n - 1);
    if ((year | month | day | hour | minute | second | nanos) < 0
        || hour > 23
        || minute > 59
        || second > 59) {
      return null;
    }
    try {
      long epochDay = LocalDate.of(year, month, day).toEpochDay();
      return Instant.ofEpochSecond(
          epochDay * 86_400 + hour * 3_600L + minute * 60L + second, nanos);
    } catch (DateTimeException e) {
      return null;
    }
  }

  /** The value of {@code count} ASCII digits from {@code from}; -1 if any is not one. */
  private static int digits(CharSequence s, int from, int count) {
    int value = 0;
    for (int i = from; i < from + count; i++) {
      char ch = s.charAt(i);
      if (ch < '0' || ch > '9') {
        return -1;
      }
      value = value * 10 + (ch - '0');
    }
    return value;
  }

  /**
   * The nanoseconds of an optional fraction in {@code [from, end)}: none, or a point and one to
   * nine digits; -1 for anything else.
   */
  private static int fraction(CharSequence s, int from, int end) {
    if (from == end) {
      return 0;
    }
    int count = end - from - 1;
    if (s.charAt(from) != '.' || count < 1 || count > 9) {
      return -1;
    }
    int value = digits(s, from + 1, count);
    if (value < 0) {
      return -1;
    }
    for (int i = count; i < 9; i++) {
      value *= 10;
    }
    return value;
  }
}
