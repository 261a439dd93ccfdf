package dev.clearway.core.channel.policy;

import java.util.Objects;

/**
 * One reason a policy is refused. {@code code} is stable (see {@link PolicyValidator} and the
 * parser); {@code ruleIndex} is the 0-based rule it concerns, or {@link #POLICY_LEVEL} for the
 * policy as a whole. Schema problems start their message with a path such as {@code
 * rules[2].delays[1]}.
 */
public record PolicyProblem(String code, int ruleIndex, String message) {

  /** The rule index of a problem that concerns no single rule. */
  public static final int POLICY_LEVEL = -1;

  public PolicyProblem {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(message, "message");
  }

  @Override
  public String toString() {
    return code + (ruleIndex == POLICY_LEVEL ? "" : " (rule " + ruleIndex + ")") + ": " + message;
  }
}
