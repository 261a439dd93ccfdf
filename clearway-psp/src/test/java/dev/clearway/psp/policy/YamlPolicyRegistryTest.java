package dev.clearway.psp.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.policy.InMemoryRecoveryPolicyStore;
import dev.clearway.core.channel.policy.PolicyProblem;
import dev.clearway.core.channel.policy.PolicyRecord;
import dev.clearway.core.channel.policy.PolicyRegistry;
import dev.clearway.core.channel.policy.PolicyRejected;
import dev.clearway.core.channel.policy.PolicyStatus;
import dev.clearway.core.channel.policy.RolloutState;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The start-up path: the shipped file becomes ACTIVE; YAML submissions go through validation. */
class YamlPolicyRegistryTest {
  private final PolicyRegistry registry =
      new PolicyRegistry(
          new InMemoryRecoveryPolicyStore(),
          new YamlPolicyParser(),
          ChannelCapabilities.all(),
          Clock.fixed(Instant.parse("2026-03-01T12:00:00Z"), ZoneOffset.UTC));

  @Test
  void bootstrapsFromTheDefaultFileAndRefusesWebhookWaitingOnStripe() throws PolicyRejected {
    RolloutState state = registry.activateInitial(DefaultRecoveryPolicy.text(), "startup");
    assertThat(state.stableVersion()).isEqualTo("default-2026-01-01");
    assertThat(registry.version("default-2026-01-01").rules()).hasSize(4);

    String withWebhook =
        """
        version: stripe-webhook-wait
        rules:
          - match: {channel: stripe, payment_method: card, operation: create}
            strategies: [idempotent_replay, retrieve, wait_webhook]
            delays: [10s, 30s, 2m]
            max_unknown_age: 2h
            query_qps: 20
            query_concurrency: 8
        """;
    registry.submit(withWebhook, "alice");
    PolicyRecord rejected = registry.validate("stripe-webhook-wait");
    assertThat(rejected.status()).isEqualTo(PolicyStatus.REJECTED);
    assertThat(rejected.problems())
        .extracting(PolicyProblem::code)
        .containsExactly("strategy_not_supported");
    assertThat(rejected.problems().get(0).ruleIndex()).isZero();
    assertThat(registry.current()).isEqualTo(state);
  }
}
