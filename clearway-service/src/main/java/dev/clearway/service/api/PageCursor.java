package dev.clearway.service.api;

import java.time.DateTimeException;
import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cursors of paged lists and the size of a page. A page asks for one row more than it returns,
 * so it knows whether a next page exists; its {@code nextCursor} is the key of its last row and
 * names where the next page starts. Most lists page newest first by id, and their cursor is that
 * id; a list in another order has a cursor of its order's key: a time (in microseconds since the
 * epoch, the database's precision) and the row's id or name, as {@code <micros>_<key>}. A cursor
 * that is not one of ours is 400 {@code invalid_cursor}; a limit outside 1..{@value #MAX_SIZE} is
 * 400 {@code invalid_parameter}.
 */
public final class PageCursor {
  /** The most rows of any page, and a page's size when the caller names none. */
  public static final int MAX_SIZE = 100;

  private static final Pattern KEYED = Pattern.compile("(-?[0-9]{1,19})_([A-Za-z0-9._-]{1,64})");

  private PageCursor() {}

  /** A position in a list ordered by a time, then a key: after (or before) this row. */
  public record TimeKey(Instant at, String key) {}

  /** A position in a list ordered by a time, then an id. */
  public record TimeId(Instant at, long id) {}

  /** The size of a page: {@code limit}, or {@value #MAX_SIZE} when none is given. */
  public static int size(Integer limit) {
    int size = limit == null ? MAX_SIZE : limit;
    if (size < 1 || size > MAX_SIZE) {
      throw ApiException.badRequest("invalid_parameter", "limit must be between 1 and " + MAX_SIZE);
    }
    return size;
  }

  /** The exclusive upper bound of the ids of the next page; the first page has none. */
  public static long before(String cursor) {
    if (cursor == null || cursor.isEmpty()) {
      return Long.MAX_VALUE;
    }
    try {
      long id = Long.parseLong(cursor);
      if (id < 1) {
        throw new NumberFormatException();
      }
      return id;
    } catch (NumberFormatException e) {
      throw invalid();
    }
  }

  /** The cursor after a page whose last row has this id, or null when there is no next page. */
  public static String after(long lastId, boolean more) {
    return more ? Long.toString(lastId) : null;
  }

  /** The row a page of a time-ordered list starts from; null for the first page. */
  public static TimeKey timeKey(String cursor) {
    if (cursor == null || cursor.isEmpty()) {
      return null;
    }
    Matcher m = KEYED.matcher(cursor);
    if (!m.matches()) {
      throw invalid();
    }
    try {
      long micros = Long.parseLong(m.group(1));
      Instant at =
          Instant.ofEpochSecond(
              Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
      return new TimeKey(at, m.group(2));
    } catch (NumberFormatException | DateTimeException e) {
      throw invalid();
    }
  }

  /** {@link #timeKey} of a list whose key is a positive id. */
  public static TimeId timeId(String cursor) {
    TimeKey key = timeKey(cursor);
    if (key == null) {
      return null;
    }
    return new TimeId(key.at(), before(key.key()));
  }

  /** The cursor after a row at {@code at} with {@code key}, or null when there is no next page. */
  public static String after(Instant at, String key, boolean more) {
    if (!more) {
      return null;
    }
    long micros =
        Math.addExact(Math.multiplyExact(at.getEpochSecond(), 1_000_000L), at.getNano() / 1_000L);
    return micros + "_" + key;
  }

  private static ApiException invalid() {
    return ApiException.badRequest(
        "invalid_cursor", "cursor must be the nextCursor of a previous page");
  }
}
