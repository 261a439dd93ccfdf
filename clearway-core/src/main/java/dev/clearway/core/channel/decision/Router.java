package dev.clearway.core.channel.decision;

import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.port.ChannelHealth;
import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;
import java.util.Set;

/**
 * Chooses the channel account for a new create: enabled, accepts the method, outside every excluded
 * failure domain, admitted by its circuit breaker; then by priority and id.
 */
public final class Router {

  private Router() {}

  public static Optional<ChannelAccount> route(
      Collection<ChannelAccount> accounts,
      String paymentMethod,
      Set<String> excludedDomains,
      ChannelHealth health) {
    return accounts.stream()
        .filter(a -> a.accepts(paymentMethod))
        .filter(a -> !excludedDomains.contains(a.failureDomain()))
        .filter(a -> health.admitsCreate(a.id()))
        .min(
            Comparator.comparingInt(ChannelAccount::priority)
                .thenComparingLong(ChannelAccount::id));
  }
}
