package dev.clearway.store.reconciliation;

import dev.clearway.core.reconciliation.domain.DifferenceClass;
import dev.clearway.core.reconciliation.domain.DifferenceState;
import dev.clearway.core.reconciliation.domain.MatchConfidence;

/** Which differences a list shows; a null field does not filter. */
public record DifferenceFilter(
    String account, DifferenceClass kind, DifferenceState state, MatchConfidence confidence) {

  public static DifferenceFilter all() {
    return new DifferenceFilter(null, null, null, null);
  }
}
