package dev.clearway.service.reconciliation;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.fact.BizFact;
import dev.clearway.core.flow.port.BusinessGateway;
import dev.clearway.core.reconciliation.domain.BusinessFact;
import dev.clearway.core.reconciliation.domain.BusinessStatus;
import dev.clearway.core.reconciliation.port.BusinessFacts;
import java.util.Optional;

/**
 * The business contract's fact query as reconciliation reads it: DONE with the trade order the
 * business names (or none), NOT_DONE, or UNKNOWN when the fact could not be read (never a reason to
 * repair).
 */
public final class GatewayBusinessFacts implements BusinessFacts {
  private final BusinessGateway business;

  public GatewayBusinessFacts(BusinessGateway business) {
    this.business = business;
  }

  @Override
  public Optional<BusinessFact> byGoal(GoalKey goal) {
    BizFact fact;
    try {
      fact = business.readFact(goal);
    } catch (RuntimeException e) {
      return Optional.of(new BusinessFact(goal, BusinessStatus.UNKNOWN, null));
    }
    if (fact == null) {
      return Optional.empty();
    }
    return Optional.of(
        switch (fact.state()) {
          case DONE -> new BusinessFact(goal, BusinessStatus.DONE, fact.attributedOrderNo());
          case NOT_DONE -> new BusinessFact(goal, BusinessStatus.NOT_DONE, null);
          case UNREADABLE -> new BusinessFact(goal, BusinessStatus.UNKNOWN, null);
        });
  }
}
