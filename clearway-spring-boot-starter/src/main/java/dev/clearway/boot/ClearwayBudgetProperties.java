package dev.clearway.boot;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code clearway.budget.*}: the calls per second each account receives.
 *
 * @param nodes how many nodes share each account's budget (default 1). With a shared budget
 *     (clearway.redis.url) it is only used while Redis is unreachable: each node then paces at its
 *     share, budget / nodes, so the cluster stays within the budget
 * @param walletQps the plain wallet's calls per second, summed over all nodes (unset: not paced); a
 *     call that cannot start within a second, or before its caller's lease ends, is not sent and
 *     answers UNKNOWN
 */
@ConfigurationProperties(prefix = "clearway.budget")
public record ClearwayBudgetProperties(Integer nodes, Integer walletQps) {

  public int nodesOrDefault() {
    return nodes == null ? 1 : nodes;
  }
}
