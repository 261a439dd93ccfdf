package dev.clearway.core.channel.decision;

import java.util.Objects;
import java.util.Set;

/** The failover guard's answer: allowed with the failure domains to exclude, or denied why. */
public record FailoverDecision(boolean allowed, DenyReason reason, Set<String> excludedDomains) {

  public FailoverDecision {
    Objects.requireNonNull(excludedDomains, "excludedDomains");
  }

  public enum DenyReason {
    PREVIOUS_ATTEMPT_NOT_PROVEN_FAILED,
    ERROR_POLICY_DENIES_FAILOVER,
    CUSTOMER_ACTION_REQUIRED,
    NO_ROUTE
  }

  public static FailoverDecision allow(Set<String> excluded) {
    return new FailoverDecision(true, null, Set.copyOf(excluded));
  }

  public static FailoverDecision deny(DenyReason reason) {
    return new FailoverDecision(false, reason, Set.of());
  }
}
