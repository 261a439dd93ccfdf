package dev.clearway.core.modelcheck.world;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.fact.BizCallResult;
import dev.clearway.core.flow.fact.BizFact;
import dev.clearway.core.flow.port.BusinessGateway;
import dev.clearway.core.modelcheck.Pending;
import dev.clearway.core.modelcheck.Scripted;
import java.time.Instant;
import java.util.List;

/**
 * The business service of one goal: grants it at most once, never at or after the deadline it is
 * given, and tells the truth when its fact can be read. Every answer is chosen by the explorer:
 * granted, granted with the response lost, lost before the service, rejected, unreadable.
 */
public final class ScriptedBusiness implements BusinessGateway, Scripted {
  static final String GRANTED = "granted";
  static final String GRANTED_LOST = "granted, response lost";
  static final String LOST_BEFORE = "lost before the business";
  static final String REJECTED = "rejected";
  static final String TRUTH = "answers";
  static final String LOST = "response lost";
  static final String UNREADABLE = "unreadable";

  private final Instant now;
  private BusinessLedger ledger;
  private String outcome;

  public ScriptedBusiness(BusinessLedger ledger, Instant now) {
    this.ledger = ledger;
    this.now = now;
  }

  public BusinessLedger ledger() {
    return ledger;
  }

  @Override
  public void choose(String chosen) {
    this.outcome = chosen;
  }

  @Override
  public List<String> outcomes(Pending call) {
    if (call.method().equals("readFact")) {
      return List.of(TRUTH, UNREADABLE);
    }
    Instant deadline = (Instant) call.arg(2);
    if (!now.isBefore(deadline) || ledger.grantedTo() != null) {
      return List.of(TRUTH, LOST);
    }
    return List.of(GRANTED, GRANTED_LOST, LOST_BEFORE, REJECTED);
  }

  @Override
  public BizCallResult fulfil(GoalKey goal, String tradeOrderNo, Instant deadline) {
    return switch (outcome) {
      case GRANTED -> grant(tradeOrderNo, BizCallResult.ACCEPTED);
      case GRANTED_LOST -> grant(tradeOrderNo, BizCallResult.UNKNOWN);
      case REJECTED -> BizCallResult.REJECTED;
      case TRUTH ->
          ledger.grantedTo() != null ? BizCallResult.ALREADY_DONE : BizCallResult.REJECTED;
      default -> BizCallResult.UNKNOWN;
    };
  }

  private BizCallResult grant(String tradeOrderNo, BizCallResult answer) {
    ledger = new BusinessLedger(tradeOrderNo, ledger.foreignGrantUsed());
    return answer;
  }

  @Override
  public BizFact readFact(GoalKey goal) {
    if (!TRUTH.equals(outcome)) {
      return BizFact.unreadable("BIZ_TIMEOUT");
    }
    return ledger.grantedTo() == null ? BizFact.notDone() : BizFact.done(ledger.grantedTo());
  }

  /** Another order takes the goal (a payment this engine does not know of). */
  public void grantToOtherOrder() {
    ledger = new BusinessLedger(BusinessLedger.OTHER_ORDER, true);
  }
}
