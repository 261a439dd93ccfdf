package dev.clearway.core.channel.policy;

import dev.clearway.core.channel.spi.RecoveryCapabilities;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks a parsed policy against the channels that exist and what they can do. Returns every
 * problem found (empty when the policy may be published); never throws for a bad policy.
 *
 * <p>Stable codes: {@code bad_version}, {@code no_rules}, {@code unknown_channel}, {@code
 * strategy_not_supported}, {@code no_strategies}, {@code duplicate_strategy}, {@code no_delays},
 * {@code delay_not_positive}, {@code max_unknown_age_too_short}, {@code qps_out_of_range}, {@code
 * concurrency_out_of_range}, {@code duplicate_match}.
 */
public final class PolicyValidator {

  public static final int MAX_QPS = 1000;
  public static final int MAX_CONCURRENCY = 256;

  /** Letters, digits, dot, dash and underscore; starts with a letter or digit; at most 64. */
  private static final Pattern VERSION = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

  public List<PolicyProblem> validate(
      RecoveryPolicy policy, Map<String, RecoveryCapabilities> channels) {
    List<PolicyProblem> problems = new ArrayList<>();
    if (!isValidVersion(policy.version())) {
      problems.add(
          new PolicyProblem(
              "bad_version",
              PolicyProblem.POLICY_LEVEL,
              "version must be 1..64 letters, digits, '.', '-' or '_'"));
    }
    if (policy.rules().isEmpty()) {
      problems.add(new PolicyProblem("no_rules", PolicyProblem.POLICY_LEVEL, "no rules"));
    }
    Set<RuleMatch> seen = new HashSet<>();
    for (int i = 0; i < policy.rules().size(); i++) {
      PolicyRule rule = policy.rules().get(i);
      if (!seen.add(rule.match())) {
        problems.add(
            new PolicyProblem("duplicate_match", i, "another rule has match " + rule.match()));
      }
      checkStrategies(rule, i, channels.get(rule.match().channel()), problems);
      checkTiming(rule, i, problems);
      checkBudget(rule, i, problems);
    }
    return List.copyOf(problems);
  }

  /** Whether {@code version} may name a policy: 1..64 letters, digits, '.', '-' or '_'. */
  public static boolean isValidVersion(String version) {
    return version != null && VERSION.matcher(version).matches();
  }

  private static void checkStrategies(
      PolicyRule rule, int i, RecoveryCapabilities caps, List<PolicyProblem> problems) {
    if (caps == null) {
      problems.add(
          new PolicyProblem(
              "unknown_channel", i, "no channel named '" + rule.match().channel() + "'"));
    }
    if (rule.strategies().isEmpty()) {
      problems.add(new PolicyProblem("no_strategies", i, "a rule needs at least one strategy"));
    }
    Set<RecoveryStrategy> distinct = EnumSet.noneOf(RecoveryStrategy.class);
    for (RecoveryStrategy s : rule.strategies()) {
      if (!distinct.add(s)) {
        problems.add(new PolicyProblem("duplicate_strategy", i, s + " is listed twice"));
      }
      if (caps != null && !s.supportedBy(caps)) {
        problems.add(
            new PolicyProblem(
                "strategy_not_supported",
                i,
                s + " needs a capability channel '" + rule.match().channel() + "' lacks"));
      }
    }
  }

  private static void checkTiming(PolicyRule rule, int i, List<PolicyProblem> problems) {
    if (rule.delays().isEmpty()) {
      problems.add(new PolicyProblem("no_delays", i, "a rule needs at least one delay"));
      return;
    }
    for (int d = 0; d < rule.delays().size(); d++) {
      Duration delay = rule.delays().get(d);
      if (delay.isZero() || delay.isNegative()) {
        problems.add(
            new PolicyProblem("delay_not_positive", i, "delays[" + d + "] must be positive"));
      }
    }
    Duration age = rule.maxUnknownAge();
    if (age.isNegative() || age.isZero() || age.compareTo(rule.delays().get(0)) < 0) {
      problems.add(
          new PolicyProblem(
              "max_unknown_age_too_short",
              i,
              "max_unknown_age is shorter than the first delay: no recovery run would happen"));
    }
  }

  private static void checkBudget(PolicyRule rule, int i, List<PolicyProblem> problems) {
    if (rule.queryQps() < 1 || rule.queryQps() > MAX_QPS) {
      problems.add(
          new PolicyProblem("qps_out_of_range", i, "query_qps must be within 1.." + MAX_QPS));
    }
    if (rule.queryConcurrency() < 1 || rule.queryConcurrency() > MAX_CONCURRENCY) {
      problems.add(
          new PolicyProblem(
              "concurrency_out_of_range",
              i,
              "query_concurrency must be within 1.." + MAX_CONCURRENCY));
    }
  }
}
