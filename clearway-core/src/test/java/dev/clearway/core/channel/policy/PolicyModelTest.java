package dev.clearway.core.channel.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.channel.spi.RecoveryCapabilities;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class PolicyModelTest {

  @Test
  void delayAfterWalksTheListAndRepeatsTheLast() {
    PolicyRule rule = Policies.stripeCreate();
    assertThat(rule.delayAfter(0)).isEqualTo(Duration.ofSeconds(10));
    assertThat(rule.delayAfter(1)).isEqualTo(Duration.ofSeconds(30));
    assertThat(rule.delayAfter(2)).isEqualTo(Duration.ofMinutes(2));
    assertThat(rule.delayAfter(50)).isEqualTo(Duration.ofMinutes(2));
    assertThatThrownBy(() -> rule.delayAfter(-1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void exactMethodBeatsWildcardWhateverTheOrder() {
    PolicyRule any =
        Policies.rule("stripe", "*", Operation.CREATE, List.of(RecoveryStrategy.RECONCILIATION), 5);
    PolicyRule card = Policies.stripeCreate();
    RecoveryPolicy policy = Policies.policy("v1", any, card);

    assertThat(policy.ruleFor("stripe", "card", Operation.CREATE)).contains(card);
    assertThat(policy.ruleFor("stripe", "sepa", Operation.CREATE)).contains(any);
    assertThat(policy.ruleFor("stripe", "card", Operation.REFUND)).isEmpty();
    assertThat(policy.ruleFor("wechat", "card", Operation.CREATE)).isEmpty();
  }

  @Test
  void eachStrategyNeedsItsOwnCapability() {
    RecoveryCapabilities none = new RecoveryCapabilities(false, false, false, false, false);
    for (RecoveryStrategy s : RecoveryStrategy.values()) {
      assertThat(s.supportedBy(none)).as(s.name()).isFalse();
    }
    assertThat(RecoveryStrategy.IDEMPOTENT_REPLAY.supportedBy(caps(0))).isTrue();
    assertThat(RecoveryStrategy.RETRIEVE.supportedBy(caps(1))).isTrue();
    assertThat(RecoveryStrategy.MERCHANT_REFERENCE_SEARCH.supportedBy(caps(2))).isTrue();
    assertThat(RecoveryStrategy.WAIT_WEBHOOK.supportedBy(caps(3))).isTrue();
    assertThat(RecoveryStrategy.RECONCILIATION.supportedBy(caps(4))).isTrue();
    assertThat(RecoveryStrategy.RETRIEVE.supportedBy(caps(0))).isFalse();
    assertThat(RecoveryStrategy.WAIT_WEBHOOK.supportedBy(Policies.STRIPE)).isFalse();
  }

  @Test
  void problemTextRoundTrips() {
    List<PolicyProblem> problems =
        List.of(
            new PolicyProblem("qps_out_of_range", 2, "query_qps\tmust be\nwithin 1..1000"),
            new PolicyProblem("bad_version", -1, "version"));
    List<PolicyProblem> back = ProblemText.decode(ProblemText.encode(problems));
    assertThat(back)
        .extracting(PolicyProblem::code)
        .containsExactly("qps_out_of_range", "bad_version");
    assertThat(back).extracting(PolicyProblem::ruleIndex).containsExactly(2, -1);
    assertThat(ProblemText.encode(List.of())).isNull();
    assertThat(ProblemText.decode(null)).isEmpty();
  }

  private static RecoveryCapabilities caps(int only) {
    return new RecoveryCapabilities(only == 0, only == 1, only == 2, only == 3, only == 4);
  }
}
