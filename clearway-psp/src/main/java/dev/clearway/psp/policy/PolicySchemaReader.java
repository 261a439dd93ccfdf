package dev.clearway.psp.policy;

import dev.clearway.core.channel.policy.Operation;
import dev.clearway.core.channel.policy.PolicyProblem;
import dev.clearway.core.channel.policy.PolicyRule;
import dev.clearway.core.channel.policy.RecoveryPolicy;
import dev.clearway.core.channel.policy.RecoveryStrategy;
import dev.clearway.core.channel.policy.RuleMatch;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the tree snakeyaml produced (maps, lists, scalars) into a {@link RecoveryPolicy}, checking
 * the policy schema and collecting every problem with its path. One instance per document; not
 * thread-safe.
 */
final class PolicySchemaReader {

  private static final Set<String> ROOT_KEYS = Set.of("version", "rules");
  private static final Set<String> RULE_KEYS =
      Set.of("match", "strategies", "delays", "max_unknown_age", "query_qps", "query_concurrency");
  private static final Set<String> MATCH_KEYS = Set.of("channel", "payment_method", "operation");

  private final List<PolicyProblem> problems = new ArrayList<>();

  List<PolicyProblem> problems() {
    return List.copyOf(problems);
  }

  /** The policy, or null when there were problems (see {@link #problems()}). */
  RecoveryPolicy read(Object document) {
    Map<?, ?> root = asMap(document, "(root)", PolicyProblem.POLICY_LEVEL);
    if (root == null) {
      return null;
    }
    checkKeys(root, ROOT_KEYS, "", PolicyProblem.POLICY_LEVEL);
    String version = string(root, "version", "", PolicyProblem.POLICY_LEVEL);
    List<PolicyRule> rules = new ArrayList<>();
    Object rawRules = require(root, "rules", "", PolicyProblem.POLICY_LEVEL);
    if (rawRules != null) {
      if (rawRules instanceof List<?> list) {
        for (int i = 0; i < list.size(); i++) {
          PolicyRule rule = rule(list.get(i), "rules[" + i + "]", i);
          if (rule != null) {
            rules.add(rule);
          }
        }
      } else {
        problem("bad_type", "rules", PolicyProblem.POLICY_LEVEL, "expected a list of rules");
      }
    }
    return problems.isEmpty() ? new RecoveryPolicy(version, rules) : null;
  }

  private PolicyRule rule(Object raw, String path, int i) {
    Map<?, ?> map = asMap(raw, path, i);
    if (map == null) {
      return null;
    }
    int before = problems.size();
    checkKeys(map, RULE_KEYS, path + ".", i);
    RuleMatch match = match(require(map, "match", path + ".", i), path + ".match", i);
    List<RecoveryStrategy> strategies = strategies(map, path, i);
    List<Duration> delays = delays(map, path, i);
    Duration maxAge =
        duration(require(map, "max_unknown_age", path + ".", i), path + ".max_unknown_age", i);
    Integer qps = integer(map, "query_qps", path + ".", i);
    Integer concurrency = integer(map, "query_concurrency", path + ".", i);
    if (problems.size() != before) {
      return null;
    }
    return new PolicyRule(match, strategies, delays, maxAge, qps, concurrency);
  }

  private RuleMatch match(Object raw, String path, int i) {
    if (raw == null) {
      return null;
    }
    Map<?, ?> map = asMap(raw, path, i);
    if (map == null) {
      return null;
    }
    checkKeys(map, MATCH_KEYS, path + ".", i);
    String channel = string(map, "channel", path + ".", i);
    String method = string(map, "payment_method", path + ".", i);
    String op = string(map, "operation", path + ".", i);
    Operation operation = null;
    if (op != null) {
      operation = operation(op).orElse(null);
      if (operation == null) {
        problem("bad_operation", path + ".operation", i, "expected create or refund");
      }
    }
    if (channel == null || method == null || operation == null) {
      return null;
    }
    return new RuleMatch(channel, method, operation);
  }

  private List<RecoveryStrategy> strategies(Map<?, ?> map, String path, int i) {
    List<RecoveryStrategy> out = new ArrayList<>();
    List<?> items = list(map, "strategies", path + ".", i);
    if (items == null) {
      return out;
    }
    for (int s = 0; s < items.size(); s++) {
      String itemPath = path + ".strategies[" + s + "]";
      if (!(items.get(s) instanceof String name)) {
        problem("bad_type", itemPath, i, "expected a strategy name");
        continue;
      }
      strategy(name)
          .ifPresentOrElse(
              out::add,
              () ->
                  problem(
                      "bad_strategy",
                      itemPath,
                      i,
                      "expected one of idempotent_replay, retrieve, merchant_reference_search,"
                          + " wait_webhook, reconciliation"));
    }
    return out;
  }

  private List<Duration> delays(Map<?, ?> map, String path, int i) {
    List<Duration> out = new ArrayList<>();
    List<?> items = list(map, "delays", path + ".", i);
    if (items == null) {
      return out;
    }
    for (int d = 0; d < items.size(); d++) {
      Duration delay = duration(items.get(d), path + ".delays[" + d + "]", i);
      if (delay != null) {
        out.add(delay);
      }
    }
    return out;
  }

  private Duration duration(Object raw, String path, int i) {
    if (raw == null) {
      return null;
    }
    if (raw instanceof String text) {
      Optional<Duration> d = DurationText.parse(text);
      if (d.isPresent()) {
        return d.get();
      }
    }
    if (raw instanceof String || raw instanceof Number) {
      problem("bad_duration", path, i, "expected a duration such as 500ms, 10s, 2m, 2h or 1d");
    } else {
      problem("bad_type", path, i, "expected a duration");
    }
    return null;
  }

  private Integer integer(Map<?, ?> map, String key, String prefix, int i) {
    Object raw = require(map, key, prefix, i);
    if (raw == null) {
      return null;
    }
    if (raw instanceof Integer n) {
      return n;
    }
    problem("bad_type", prefix + key, i, "expected a whole number");
    return null;
  }

  private String string(Map<?, ?> map, String key, String prefix, int i) {
    Object raw = require(map, key, prefix, i);
    if (raw == null) {
      return null;
    }
    if (raw instanceof String s && !s.isBlank()) {
      return s;
    }
    problem("bad_type", prefix + key, i, "expected a non-empty string");
    return null;
  }

  private List<?> list(Map<?, ?> map, String key, String prefix, int i) {
    Object raw = require(map, key, prefix, i);
    if (raw == null) {
      return null;
    }
    if (raw instanceof List<?> items) {
      return items;
    }
    problem("bad_type", prefix + key, i, "expected a list");
    return null;
  }

  private Object require(Map<?, ?> map, String key, String prefix, int i) {
    Object value = map.get(key);
    if (value == null) {
      problem("missing_key", prefix + key, i, "required");
    }
    return value;
  }

  private Map<?, ?> asMap(Object raw, String path, int i) {
    if (raw instanceof Map<?, ?> map) {
      return map;
    }
    problem("bad_type", path, i, "expected a mapping");
    return null;
  }

  private void checkKeys(Map<?, ?> map, Set<String> allowed, String prefix, int i) {
    for (Object key : map.keySet()) {
      if (!(key instanceof String name) || !allowed.contains(name)) {
        problem("unknown_key", prefix + key, i, "not a key here; allowed: " + sorted(allowed));
      }
    }
  }

  private void problem(String code, String path, int ruleIndex, String message) {
    problems.add(new PolicyProblem(code, ruleIndex, path + ": " + message));
  }

  private static Optional<Operation> operation(String text) {
    return switch (text.strip().toLowerCase(Locale.ROOT)) {
      case "create" -> Optional.of(Operation.CREATE);
      case "refund" -> Optional.of(Operation.REFUND);
      default -> Optional.empty();
    };
  }

  private static Optional<RecoveryStrategy> strategy(String text) {
    String name = text.strip().toUpperCase(Locale.ROOT);
    for (RecoveryStrategy s : RecoveryStrategy.values()) {
      if (s.name().equals(name)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }

  private static List<String> sorted(Set<String> keys) {
    return keys.stream().sorted().toList();
  }
}
