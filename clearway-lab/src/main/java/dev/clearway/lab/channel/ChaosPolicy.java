package dev.clearway.lab.channel;

import dev.clearway.core.channel.policy.Operation;
import dev.clearway.core.channel.policy.PolicyRule;
import dev.clearway.core.channel.policy.RecoveryPolicy;
import dev.clearway.core.channel.policy.RecoveryStrategy;
import dev.clearway.core.channel.policy.RuleMatch;
import java.time.Duration;
import java.util.List;

/** The recovery policy of the chaos run: one rule for Stripe cards, one for WeChat wallets. */
final class ChaosPolicy {

  private ChaosPolicy() {}

  static RecoveryPolicy policy() {
    return new RecoveryPolicy("chaos", List.of(stripeCard(), wechatWallet()));
  }

  private static PolicyRule stripeCard() {
    return new PolicyRule(
        new RuleMatch("stripe", "card", Operation.CREATE),
        List.of(RecoveryStrategy.IDEMPOTENT_REPLAY, RecoveryStrategy.RETRIEVE),
        List.of(Duration.ofMillis(200), Duration.ofMillis(500), Duration.ofSeconds(1)),
        // Short, so that what stays unknowable (a stored 500 that never executed: replays
        // answer 500, search finds nothing) reaches its exit, a manual case, within the run.
        Duration.ofSeconds(15),
        200,
        16);
  }

  /**
   * WeChat: the query by out_trade_no is authoritative, a replay re-creates with the same number
   * (same answer), notifications are authoritative. A customer who never pays keeps the attempt
   * PENDING until the order is closed, well within the same maximum age.
   */
  private static PolicyRule wechatWallet() {
    return new PolicyRule(
        new RuleMatch("wechat", "wallet", Operation.CREATE),
        List.of(
            RecoveryStrategy.MERCHANT_REFERENCE_SEARCH,
            RecoveryStrategy.IDEMPOTENT_REPLAY,
            RecoveryStrategy.WAIT_WEBHOOK),
        List.of(Duration.ofMillis(200), Duration.ofMillis(500), Duration.ofSeconds(1)),
        Duration.ofSeconds(15),
        200,
        16);
  }
}
