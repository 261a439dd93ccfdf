package dev.clearway.service.api;

import java.util.List;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * One page of an ops list: its rows in the list's order and the {@code cursor} of the next page
 * (null on the last one). Every list under {@code /ops} answers in this shape.
 */
public record Page<T>(List<T> items, String nextCursor) {

  public Page {
    items = List.copyOf(items);
  }

  /**
   * The page of at most {@code size} rows out of {@code rows}, which were read with one row more
   * than a page; {@code cursorAfter} gives the cursor after a row.
   */
  public static <T> Page<T> of(List<T> rows, int size, Function<T, String> cursorAfter) {
    boolean more = rows.size() > size;
    List<T> page = more ? rows.subList(0, size) : rows;
    return new Page<>(page, more ? cursorAfter.apply(page.get(page.size() - 1)) : null);
  }

  /** The same page with each row mapped. */
  public <R> Page<R> map(Function<T, R> mapper) {
    return new Page<>(items.stream().map(mapper).toList(), nextCursor);
  }

  /** {@link #of} for a list paged newest first by id. */
  public static <T> Page<T> byId(List<T> rows, int size, ToLongFunction<T> id) {
    return of(rows, size, row -> PageCursor.after(id.applyAsLong(row), true));
  }
}
