package dev.clearway.core.channel.policy;

import java.util.Locale;
import java.util.Objects;

/**
 * Which attempts a rule governs: one channel, one payment method (or {@link #ANY_METHOD}) and one
 * operation.
 */
public record RuleMatch(String channel, String paymentMethod, Operation operation) {

  /** The payment method wildcard; an exact method beats it. */
  public static final String ANY_METHOD = "*";

  public RuleMatch {
    Objects.requireNonNull(channel, "channel");
    Objects.requireNonNull(paymentMethod, "paymentMethod");
    Objects.requireNonNull(operation, "operation");
  }

  public boolean isWildcard() {
    return ANY_METHOD.equals(paymentMethod);
  }

  @Override
  public String toString() {
    return channel + "/" + paymentMethod + "/" + operation.name().toLowerCase(Locale.ROOT);
  }
}
