package dev.clearway.store;

import java.util.Map;
import java.util.TreeMap;

/**
 * Rows counted by status for the console: a {@code SELECT status, count(*) ... GROUP BY status}.
 */
public final class StatusCounts {

  private StatusCounts() {}

  /** The counts of {@code select} (status, count; no parameters), by status in order. */
  public static Map<String, Long> read(Sql sql, String select) {
    Map<String, Long> counts = new TreeMap<>();
    sql.query(select, ps -> {}, rs -> counts.put(rs.getString(1), rs.getLong(2)));
    return counts;
  }
}
