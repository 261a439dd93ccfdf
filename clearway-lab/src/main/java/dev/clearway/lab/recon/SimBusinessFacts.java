package dev.clearway.lab.recon;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.fact.BizFact;
import dev.clearway.core.reconciliation.domain.BusinessFact;
import dev.clearway.core.reconciliation.domain.BusinessStatus;
import dev.clearway.core.reconciliation.port.BusinessFacts;
import dev.clearway.sim.SimBusiness;
import java.util.Optional;

/** The simulated business's fact query, as reconciliation's third side. */
final class SimBusinessFacts implements BusinessFacts {

  private final SimBusiness business;

  SimBusinessFacts(SimBusiness business) {
    this.business = business;
  }

  @Override
  public Optional<BusinessFact> byGoal(GoalKey goal) {
    BizFact fact = business.currentFact(goal);
    BusinessStatus status =
        switch (fact.state()) {
          case DONE -> BusinessStatus.DONE;
          case NOT_DONE -> BusinessStatus.NOT_DONE;
          case UNREADABLE -> BusinessStatus.UNKNOWN;
        };
    return Optional.of(new BusinessFact(goal, status, fact.attributedOrderNo()));
  }
}
