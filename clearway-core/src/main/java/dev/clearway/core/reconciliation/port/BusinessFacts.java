package dev.clearway.core.reconciliation.port;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.reconciliation.domain.BusinessFact;
import java.util.Optional;

/** What the business system says of a goal; empty when it has nothing to say. */
public interface BusinessFacts {

  Optional<BusinessFact> byGoal(GoalKey goal);
}
