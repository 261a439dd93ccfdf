package dev.clearway.core.channel.domain;

import java.util.Set;

/**
 * One account at one PSP. Failover excludes a whole {@code failureDomain} (a PSP, a region), not
 * just the account that failed.
 */
public record ChannelAccount(
    long id,
    String channel,
    String accountRef,
    String failureDomain,
    Set<String> paymentMethods,
    int priority,
    boolean enabled) {

  public boolean accepts(String paymentMethod) {
    return enabled && paymentMethods.contains(paymentMethod);
  }
}
