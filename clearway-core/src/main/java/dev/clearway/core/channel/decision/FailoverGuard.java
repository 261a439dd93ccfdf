package dev.clearway.core.channel.decision;

import dev.clearway.core.channel.decision.FailoverDecision.DenyReason;
import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.ChannelAccount;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A new attempt on another channel only when the previous attempt is proven failed, its error
 * policy allows failover and no customer action is pending. Every failure domain an attempt of this
 * order failed in is excluded from routing. Pure.
 */
public final class FailoverGuard {

  private FailoverGuard() {}

  public static FailoverDecision evaluate(
      List<Attempt> attemptsOfOrder, Map<Long, ChannelAccount> accounts) {
    if (attemptsOfOrder.isEmpty()) {
      return FailoverDecision.allow(Set.of());
    }
    Attempt previous = attemptsOfOrder.get(attemptsOfOrder.size() - 1);
    if (previous.status() != AttemptStatus.FAILED) {
      return FailoverDecision.deny(DenyReason.PREVIOUS_ATTEMPT_NOT_PROVEN_FAILED);
    }
    switch (previous.certainty()) {
      case DEFINITE_FAILURE, NO_SIDE_EFFECT -> {}
      case PENDING, UNKNOWN, CONFIRMED_SUCCESS -> {
        return FailoverDecision.deny(DenyReason.PREVIOUS_ATTEMPT_NOT_PROVEN_FAILED);
      }
    }
    if (!previous.failoverEligible()) {
      return FailoverDecision.deny(DenyReason.ERROR_POLICY_DENIES_FAILOVER);
    }
    if (previous.customerActionPending()) {
      return FailoverDecision.deny(DenyReason.CUSTOMER_ACTION_REQUIRED);
    }
    Set<String> excluded = new HashSet<>();
    for (Attempt a : attemptsOfOrder) {
      ChannelAccount account = accounts.get(a.channelAccountId());
      if (account != null) {
        excluded.add(account.failureDomain());
      }
    }
    return FailoverDecision.allow(excluded);
  }
}
