package dev.clearway.core.refundbatch.domain;

import java.time.Instant;
import java.util.List;

/**
 * Which payments a batch refunds: every BIZ_SUCCESS payment of {@code merchant}'s {@code scene},
 * optionally only those created in [{@code paidFrom}, {@code paidTo}) and only those whose business
 * key is in {@code bizKeys}.
 */
public record BatchScope(
    String merchant, String scene, Instant paidFrom, Instant paidTo, List<String> bizKeys) {

  /** The most business keys one proposal may list. */
  public static final int MAX_KEYS = 1_000;

  public BatchScope {
    if (merchant == null || merchant.isBlank() || scene == null || scene.isBlank()) {
      throw new IllegalArgumentException("a batch names a merchant and a scene");
    }
    if (paidFrom != null && paidTo != null && !paidFrom.isBefore(paidTo)) {
      throw new IllegalArgumentException("paidFrom must be before paidTo");
    }
    if (bizKeys != null && (bizKeys.isEmpty() || bizKeys.size() > MAX_KEYS)) {
      throw new IllegalArgumentException("bizKeys lists 1 to " + MAX_KEYS + " keys");
    }
    bizKeys = bizKeys == null ? null : List.copyOf(bizKeys);
  }
}
