package dev.clearway.core.channel.engine;

import dev.clearway.core.channel.policy.Operation;
import dev.clearway.core.channel.policy.PolicyRule;
import dev.clearway.core.channel.policy.RecoveryPolicy;
import dev.clearway.core.channel.port.RecoveryPolicies;
import java.util.Optional;

/** One fixed policy version (benchmarks, tests, embedding without the registry). */
public final class StaticRecoveryPolicies implements RecoveryPolicies {

  private final RecoveryPolicy policy;

  public StaticRecoveryPolicies(RecoveryPolicy policy) {
    this.policy = policy;
  }

  @Override
  public String versionFor(String attemptKey) {
    return policy.version();
  }

  @Override
  public Optional<PolicyRule> rule(
      String version, String channel, String paymentMethod, Operation op) {
    return policy.version().equals(version)
        ? policy.ruleFor(channel, paymentMethod, op)
        : Optional.empty();
  }
}
