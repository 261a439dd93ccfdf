package dev.clearway.example.shop;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.fact.BizCallResult;
import dev.clearway.core.flow.fact.BizFact;
import dev.clearway.core.flow.port.BusinessGateway;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The shop's own business service: a membership per goal, granted once and attributed to the order
 * that paid for it. A real shop keeps this in its own database.
 */
public final class Memberships implements BusinessGateway {
  private final Map<GoalKey, String> granted = new ConcurrentHashMap<>();

  @Override
  public BizCallResult fulfil(GoalKey goal, String tradeOrderNo, Instant deadline) {
    String holder = granted.putIfAbsent(goal, tradeOrderNo);
    return holder == null ? BizCallResult.ACCEPTED : BizCallResult.ALREADY_DONE;
  }

  @Override
  public BizFact readFact(GoalKey goal) {
    String holder = granted.get(goal);
    return holder == null ? BizFact.notDone() : BizFact.done(holder);
  }

  /** The order the goal's membership is attributed to, if granted. */
  public Optional<String> holder(GoalKey goal) {
    return Optional.ofNullable(granted.get(goal));
  }
}
