package dev.clearway.boot;

import dev.clearway.core.channel.domain.ChannelAccount;
import java.util.List;

/**
 * The channel accounts an embedding application declares (one per PSP account), written to {@code
 * channel_account} at start-up. Their adapters come from the application's {@link
 * dev.clearway.core.channel.port.AdapterRegistry} bean, keyed by the same ids.
 */
public record ChannelAccounts(List<ChannelAccount> accounts) {
  public ChannelAccounts {
    accounts = List.copyOf(accounts);
  }
}
