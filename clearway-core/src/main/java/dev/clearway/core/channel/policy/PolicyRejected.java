package dev.clearway.core.channel.policy;

import java.util.List;

/**
 * A policy document or a policy command was refused; nothing was written. {@code code} is stable:
 * the parser's schema codes, {@code policy_invalid} (validation problems, see {@link #problems()}),
 * or a {@link PolicyRegistry} refusal such as {@code not_found}, {@code version_exists}, {@code
 * not_validated}, {@code dry_run_missing}, {@code bad_percent}, {@code rollout_in_progress}, {@code
 * not_in_rollout}, {@code no_active}, {@code no_rollout}, {@code no_last_known_good}, {@code
 * concurrent_change}. The message names versions and codes, never policy bodies.
 */
public final class PolicyRejected extends Exception {
  private static final long serialVersionUID = 1L;

  private final String code;
  private final transient List<PolicyProblem> problems;

  public PolicyRejected(String code, String message) {
    this(code, message, List.of());
  }

  public PolicyRejected(String code, String message, List<PolicyProblem> problems) {
    super(code + ": " + message);
    this.code = code;
    this.problems = List.copyOf(problems);
  }

  /** A rejection carrying {@code problems}; its code is the first problem's. */
  public static PolicyRejected of(List<PolicyProblem> problems) {
    PolicyProblem first = problems.get(0);
    return new PolicyRejected(
        first.code(), problems.size() + " problem(s), first: " + first.message(), problems);
  }

  public String code() {
    return code;
  }

  public List<PolicyProblem> problems() {
    return problems;
  }
}
