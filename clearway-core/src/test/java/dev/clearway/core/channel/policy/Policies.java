package dev.clearway.core.channel.policy;

import dev.clearway.core.channel.spi.RecoveryCapabilities;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Test fixtures: channels, rules and a parser that looks documents up by name. */
final class Policies {
  static final RecoveryCapabilities STRIPE =
      new RecoveryCapabilities(true, true, true, false, true);
  static final RecoveryCapabilities WECHAT = new RecoveryCapabilities(true, true, true, true, true);
  static final RecoveryCapabilities WAIT_ONLY =
      new RecoveryCapabilities(false, false, false, true, false);
  static final Map<String, RecoveryCapabilities> CHANNELS =
      Map.of("stripe", STRIPE, "wechat", WECHAT, "waitonly", WAIT_ONLY);

  private Policies() {}

  static PolicyRule rule(
      String channel, String method, Operation op, List<RecoveryStrategy> strategies, int qps) {
    return new PolicyRule(
        new RuleMatch(channel, method, op),
        strategies,
        List.of(Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofMinutes(2)),
        Duration.ofHours(2),
        qps,
        8);
  }

  static PolicyRule stripeCreate() {
    return rule(
        "stripe",
        "card",
        Operation.CREATE,
        List.of(RecoveryStrategy.IDEMPOTENT_REPLAY, RecoveryStrategy.RETRIEVE),
        20);
  }

  static PolicyRule wechatCreate() {
    return rule(
        "wechat",
        "wallet",
        Operation.CREATE,
        List.of(RecoveryStrategy.MERCHANT_REFERENCE_SEARCH, RecoveryStrategy.WAIT_WEBHOOK),
        20);
  }

  static RecoveryPolicy policy(String version, PolicyRule... rules) {
    return new RecoveryPolicy(version, Arrays.asList(rules));
  }

  /** A parser whose "documents" are the versions of policies registered with it. */
  static final class LookupParser implements PolicyParser {
    private final Map<String, RecoveryPolicy> byText = new HashMap<>();

    String register(RecoveryPolicy policy) {
      String text = "doc:" + policy.version();
      byText.put(text, policy);
      return text;
    }

    @Override
    public RecoveryPolicy parse(String text) throws PolicyRejected {
      RecoveryPolicy p = byText.get(text);
      if (p == null) {
        throw PolicyRejected.of(
            List.of(new PolicyProblem("yaml_syntax", PolicyProblem.POLICY_LEVEL, "(root): bad")));
      }
      return p;
    }
  }
}
