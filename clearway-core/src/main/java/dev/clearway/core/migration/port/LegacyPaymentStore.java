package dev.clearway.core.migration.port;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.migration.domain.LegacyAnswer;

/** The legacy payment store: does it hold a payment of the goal Clearway must not pay over. */
public interface LegacyPaymentStore {
  /** Clear, in flight (the legacy reference), or unknown when the store cannot answer. */
  LegacyAnswer probe(GoalKey goal);

  /** No legacy store configured: always clear. */
  LegacyPaymentStore NONE = goal -> LegacyAnswer.clear();
}
