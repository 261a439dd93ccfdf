package dev.clearway.core.channel.engine;

import dev.clearway.core.channel.policy.Operation;
import dev.clearway.core.channel.policy.PolicyRegistry;
import dev.clearway.core.channel.policy.PolicyRule;
import dev.clearway.core.channel.port.RecoveryPolicies;
import java.util.Optional;

/** Recovery policies from the versioned registry: gray rollout by key, pinned versions. */
public final class RegistryRecoveryPolicies implements RecoveryPolicies {

  private final PolicyRegistry registry;

  public RegistryRecoveryPolicies(PolicyRegistry registry) {
    this.registry = registry;
  }

  @Override
  public String versionFor(String attemptKey) {
    return registry.current().versionFor(attemptKey);
  }

  @Override
  public Optional<PolicyRule> rule(
      String version, String channel, String paymentMethod, Operation op) {
    return registry.version(version).ruleFor(channel, paymentMethod, op);
  }
}
