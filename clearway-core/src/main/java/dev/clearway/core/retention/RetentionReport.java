package dev.clearway.core.retention;

import java.util.EnumMap;
import java.util.Map;

/**
 * Rows removed from the hot tables by one run, per kind; {@code ran} is false when another node
 * held the lease.
 */
public record RetentionReport(boolean ran, Map<RetentionKind, Integer> removed) {

  public RetentionReport {
    removed = Map.copyOf(removed);
  }

  static RetentionReport skipped() {
    return new RetentionReport(false, new EnumMap<>(RetentionKind.class));
  }

  public int removed(RetentionKind kind) {
    return removed.getOrDefault(kind, 0);
  }
}
