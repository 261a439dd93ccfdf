package dev.clearway.lab.recon;

import dev.clearway.core.channel.policy.Operation;
import dev.clearway.core.channel.policy.PolicyRule;
import dev.clearway.core.channel.policy.RecoveryPolicy;
import dev.clearway.core.channel.policy.RecoveryStrategy;
import dev.clearway.core.channel.policy.RuleMatch;
import java.time.Duration;
import java.util.List;

/**
 * The recovery policy of the reconciliation chaos run: the channels' usual online recovery (replay
 * and retrieve for cards; query by order number, replay, wait for the notification for wallets).
 * Online recovery is what the injected differences defeat: their answers are lost, or lie.
 */
final class ReconPolicy {

  private ReconPolicy() {}

  static RecoveryPolicy policy() {
    return new RecoveryPolicy(
        "recon-chaos",
        List.of(
            rule("stripe", "card", RecoveryStrategy.IDEMPOTENT_REPLAY, RecoveryStrategy.RETRIEVE),
            rule(
                "wechat",
                "wallet",
                RecoveryStrategy.MERCHANT_REFERENCE_SEARCH,
                RecoveryStrategy.IDEMPOTENT_REPLAY,
                RecoveryStrategy.WAIT_WEBHOOK)));
  }

  private static PolicyRule rule(String channel, String method, RecoveryStrategy... strategies) {
    return new PolicyRule(
        new RuleMatch(channel, method, Operation.CREATE),
        List.of(strategies),
        List.of(Duration.ofMillis(200), Duration.ofMillis(500), Duration.ofSeconds(1)),
        Duration.ofSeconds(15),
        200,
        16);
  }
}
