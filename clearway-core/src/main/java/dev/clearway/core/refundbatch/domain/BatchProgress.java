package dev.clearway.core.refundbatch.domain;

import java.util.EnumMap;
import java.util.Map;

/** How many items of a batch have each outcome. */
public record BatchProgress(Map<ItemOutcome, Integer> counts) {

  public BatchProgress {
    EnumMap<ItemOutcome, Integer> all = new EnumMap<>(ItemOutcome.class);
    for (ItemOutcome o : ItemOutcome.values()) {
      all.put(o, counts.getOrDefault(o, 0));
    }
    counts = Map.copyOf(all);
  }

  public int count(ItemOutcome outcome) {
    return counts.get(outcome);
  }

  public int total() {
    return counts.values().stream().mapToInt(Integer::intValue).sum();
  }

  /** Items whose outcome is final. */
  public int finished() {
    return total() - count(ItemOutcome.PENDING) - count(ItemOutcome.ORDERED);
  }

  public boolean allFinal() {
    return count(ItemOutcome.PENDING) == 0 && count(ItemOutcome.ORDERED) == 0;
  }
}
