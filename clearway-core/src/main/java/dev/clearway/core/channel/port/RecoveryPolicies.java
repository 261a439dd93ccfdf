package dev.clearway.core.channel.port;

import dev.clearway.core.channel.policy.Operation;
import dev.clearway.core.channel.policy.PolicyRule;
import java.util.Optional;

/**
 * The recovery policies as the engine reads them: which version a new task pins (gray rollout by
 * the attempt's key) and the rule of a pinned version.
 */
public interface RecoveryPolicies {

  String versionFor(String attemptKey);

  Optional<PolicyRule> rule(String version, String channel, String paymentMethod, Operation op);
}
