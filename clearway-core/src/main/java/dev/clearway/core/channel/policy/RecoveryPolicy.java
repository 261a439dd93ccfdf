package dev.clearway.core.channel.policy;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One immutable version of the recovery rules. A recovery task pins the version it started with, so
 * that a later policy change never silently alters how an in-flight attempt is recovered.
 */
public record RecoveryPolicy(String version, List<PolicyRule> rules) {

  public RecoveryPolicy {
    Objects.requireNonNull(version, "version");
    rules = List.copyOf(rules);
  }

  /**
   * The rule for one attempt: the rule naming exactly this payment method if there is one, else the
   * channel's wildcard ({@code *}) rule for the operation, else empty.
   */
  public Optional<PolicyRule> ruleFor(String channel, String paymentMethod, Operation op) {
    PolicyRule wildcard = null;
    for (PolicyRule rule : rules) {
      RuleMatch m = rule.match();
      if (!m.channel().equals(channel) || m.operation() != op) {
        continue;
      }
      if (m.paymentMethod().equals(paymentMethod)) {
        return Optional.of(rule);
      }
      if (m.isWildcard() && wildcard == null) {
        wildcard = rule;
      }
    }
    return Optional.ofNullable(wildcard);
  }
}
