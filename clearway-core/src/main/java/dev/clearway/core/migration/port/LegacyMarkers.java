package dev.clearway.core.migration.port;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.migration.domain.LegacyAnswer;

/** The legacy path's in-flight markers (keys it sets while it pays a goal). */
public interface LegacyMarkers {
  /** Clear, in flight (the marker's value or key as reference), or unknown when unreachable. */
  LegacyAnswer probe(GoalKey goal);

  /** No markers configured: always clear. */
  LegacyMarkers NONE = goal -> LegacyAnswer.clear();
}
