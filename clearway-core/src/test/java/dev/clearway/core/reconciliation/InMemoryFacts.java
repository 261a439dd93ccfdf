package dev.clearway.core.reconciliation;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.reconciliation.domain.BusinessFact;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.port.BusinessFacts;
import dev.clearway.core.reconciliation.port.LocalFacts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The local and business sides of a day, held in maps keyed by each identity. */
final class InMemoryFacts implements LocalFacts, BusinessFacts {
  private final Map<String, LocalFact> byTrade = new HashMap<>();
  private final Map<String, LocalFact> byRefund = new HashMap<>();
  private final Map<String, LocalFact> byKey = new HashMap<>();
  private final Map<GoalKey, BusinessFact> byGoal = new HashMap<>();
  private final List<LocalFact> all = new ArrayList<>();

  InMemoryFacts local(LocalFact fact) {
    all.add(fact);
    byTrade.put(fact.tradeOrderNo(), fact);
    if (fact.refundOrderNo() != null) {
      byRefund.put(fact.refundOrderNo(), fact);
    }
    if (fact.attemptKey() != null) {
      byKey.put(fact.attemptKey(), fact);
    }
    return this;
  }

  InMemoryFacts business(BusinessFact fact) {
    byGoal.put(fact.goal(), fact);
    return this;
  }

  List<LocalFact> all() {
    return all;
  }

  @Override
  public Optional<LocalFact> byTradeOrderNo(String tradeOrderNo) {
    return Optional.ofNullable(byTrade.get(tradeOrderNo));
  }

  @Override
  public Optional<LocalFact> byRefundOrderNo(String refundOrderNo) {
    return Optional.ofNullable(byRefund.get(refundOrderNo));
  }

  @Override
  public Optional<LocalFact> byAttemptKey(String attemptKey) {
    return Optional.ofNullable(byKey.get(attemptKey));
  }

  @Override
  public List<LocalFact> refundsOfPayment(String tradeOrderNo) {
    return all.stream()
        .filter(f -> f.tradeOrderNo().equals(tradeOrderNo))
        .filter(
            f ->
                f.refund() != null
                    || f.flowStatus() == FlowStatus.REFUNDING
                    || f.flowStatus() == FlowStatus.REFUNDED)
        .filter(f -> f.refundOrderNo() != null)
        .toList();
  }

  @Override
  public Optional<BusinessFact> byGoal(GoalKey goal) {
    return Optional.ofNullable(byGoal.get(goal));
  }
}
