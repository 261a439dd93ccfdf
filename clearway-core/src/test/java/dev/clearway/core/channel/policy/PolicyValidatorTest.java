package dev.clearway.core.channel.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class PolicyValidatorTest {
  private final PolicyValidator validator = new PolicyValidator();

  @Test
  void aSoundPolicyHasNoProblems() {
    RecoveryPolicy ok = Policies.policy("v-1.0", Policies.stripeCreate(), Policies.wechatCreate());
    assertThat(validator.validate(ok, Policies.CHANNELS)).isEmpty();
  }

  @Test
  void unknownChannel() {
    assertCodes(
        Policies.policy(
            "v1",
            Policies.rule(
                "paypal", "card", Operation.CREATE, List.of(RecoveryStrategy.RETRIEVE), 5)),
        "unknown_channel");
  }

  @Test
  void strategyTheChannelCannotCarryOut() {
    PolicyRule webhookOnStripe =
        Policies.rule(
            "stripe",
            "card",
            Operation.CREATE,
            List.of(RecoveryStrategy.RETRIEVE, RecoveryStrategy.WAIT_WEBHOOK),
            5);
    List<PolicyProblem> problems =
        validator.validate(Policies.policy("v1", webhookOnStripe), Policies.CHANNELS);
    assertThat(problems).extracting(PolicyProblem::code).containsExactly("strategy_not_supported");
    assertThat(problems.get(0).ruleIndex()).isZero();
    assertThat(problems.get(0).message()).contains("WAIT_WEBHOOK");
  }

  @Test
  void noStrategiesAndDuplicateStrategies() {
    assertCodes(
        Policies.policy("v1", Policies.rule("stripe", "card", Operation.CREATE, List.of(), 5)),
        "no_strategies");
    assertCodes(
        Policies.policy(
            "v1",
            Policies.rule(
                "stripe",
                "card",
                Operation.CREATE,
                List.of(RecoveryStrategy.RETRIEVE, RecoveryStrategy.RETRIEVE),
                5)),
        "duplicate_strategy");
  }

  @Test
  void delaysAndMaxUnknownAge() {
    assertCodes(Policies.policy("v1", timed(List.of(), Duration.ofHours(1))), "no_delays");
    assertCodes(
        Policies.policy(
            "v1", timed(List.of(Duration.ofSeconds(5), Duration.ZERO), Duration.ofHours(1))),
        "delay_not_positive");
    assertCodes(
        Policies.policy("v1", timed(List.of(Duration.ofSeconds(-5)), Duration.ofHours(1))),
        "delay_not_positive");
    assertCodes(
        Policies.policy("v1", timed(List.of(Duration.ofMinutes(10)), Duration.ofMinutes(5))),
        "max_unknown_age_too_short");
  }

  @Test
  void budgetBounds() {
    assertCodes(Policies.policy("v1", budget(0, 1)), "qps_out_of_range");
    assertCodes(Policies.policy("v1", budget(1001, 1)), "qps_out_of_range");
    assertCodes(Policies.policy("v1", budget(1, 0)), "concurrency_out_of_range");
    assertCodes(Policies.policy("v1", budget(1, 257)), "concurrency_out_of_range");
    assertThat(validator.validate(Policies.policy("v1", budget(1000, 256)), Policies.CHANNELS))
        .isEmpty();
  }

  @Test
  void duplicateMatchVersionAndEmptyRules() {
    List<PolicyProblem> dup =
        validator.validate(
            Policies.policy("v1", Policies.stripeCreate(), Policies.stripeCreate()),
            Policies.CHANNELS);
    assertThat(dup).extracting(PolicyProblem::code).containsExactly("duplicate_match");
    assertThat(dup.get(0).ruleIndex()).isEqualTo(1);

    assertCodes(Policies.policy("v 1;drop", Policies.stripeCreate()), "bad_version");
    assertCodes(Policies.policy("", Policies.stripeCreate()), "bad_version");
    assertCodes(Policies.policy("x".repeat(65), Policies.stripeCreate()), "bad_version");
    assertCodes(Policies.policy("v1"), "no_rules");
  }

  private static PolicyRule timed(List<Duration> delays, Duration maxAge) {
    return new PolicyRule(
        new RuleMatch("stripe", "card", Operation.CREATE),
        List.of(RecoveryStrategy.RETRIEVE),
        delays,
        maxAge,
        5,
        2);
  }

  private static PolicyRule budget(int qps, int concurrency) {
    return new PolicyRule(
        new RuleMatch("stripe", "card", Operation.CREATE),
        List.of(RecoveryStrategy.RETRIEVE),
        List.of(Duration.ofSeconds(1)),
        Duration.ofMinutes(1),
        qps,
        concurrency);
  }

  private void assertCodes(RecoveryPolicy policy, String... codes) {
    assertThat(validator.validate(policy, Policies.CHANNELS))
        .extracting(PolicyProblem::code)
        .containsExactly(codes);
  }
}
