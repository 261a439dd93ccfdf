package dev.clearway.core.channel.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.policy.Operation;
import dev.clearway.core.channel.policy.PolicyRule;
import dev.clearway.core.channel.policy.RecoveryPolicy;
import dev.clearway.core.channel.policy.RecoveryStrategy;
import dev.clearway.core.channel.policy.RuleMatch;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Refunds are paced at the refund rule's query_qps, not at the create rule's nor a constant. */
class RefundPacingTest {

  private static PolicyRule rule(String channel, String method, Operation op, int qps) {
    return new PolicyRule(
        new RuleMatch(channel, method, op),
        List.of(RecoveryStrategy.IDEMPOTENT_REPLAY),
        List.of(Duration.ofSeconds(30), Duration.ofMinutes(2)),
        Duration.ofHours(24),
        qps,
        4);
  }

  private final StaticRecoveryPolicies policies =
      new StaticRecoveryPolicies(
          new RecoveryPolicy(
              "v1",
              List.of(
                  rule("stripe", "card", Operation.CREATE, 20),
                  rule("stripe", "card", Operation.REFUND, 7),
                  rule("wechat", "*", Operation.REFUND, 3))));

  @Test
  void theRefundRuleOfTheChannelAndMethodSetsTheRate() {
    assertThat(RefundPacing.qps(policies, "t_1", "stripe", "card")).isEqualTo(7);
  }

  @Test
  void theChannelsWildcardRefundRuleAppliesToOtherMethods() {
    assertThat(RefundPacing.qps(policies, "t_1", "wechat", "wallet")).isEqualTo(3);
  }

  @Test
  void withoutARefundRuleTheDefaultRateApplies() {
    assertThat(RefundPacing.qps(policies, "t_1", "stripe", "sepa"))
        .isEqualTo(RefundPacing.DEFAULT_QPS);
    assertThat(RefundPacing.qps(policies, "t_1", "adyen", "card"))
        .isEqualTo(RefundPacing.DEFAULT_QPS);
  }
}
