package dev.clearway.core.flow.port;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.fact.BizCallResult;
import dev.clearway.core.flow.fact.BizFact;
import java.time.Instant;

/** The business service that grants the goal (the renewal task). */
public interface BusinessGateway {

  /** Idempotent by trade order number; the service itself refuses to act after the deadline. */
  BizCallResult fulfil(GoalKey goal, String tradeOrderNo, Instant deadline);

  /** Reads the goal's status and attribution from the business service's own store. */
  BizFact readFact(GoalKey goal);
}
