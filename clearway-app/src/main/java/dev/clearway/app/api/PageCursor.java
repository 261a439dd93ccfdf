package dev.clearway.app.api;

/**
 * The cursor of a list that pages newest first by id: the id of the last row of the previous page.
 * A page asks for one row more than it returns, so it knows whether a next page exists.
 */
public final class PageCursor {
  private PageCursor() {}

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
      throw ApiException.badRequest(
          "invalid_cursor", "cursor must be the nextCursor of a previous page");
    }
  }

  /** The cursor after a page whose last row has this id, or null when there is no next page. */
  public static String after(long lastId, boolean more) {
    return more ? Long.toString(lastId) : null;
  }
}
