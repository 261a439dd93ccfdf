package dev.clearway.core.channel.port;

import dev.clearway.core.channel.spi.PspAdapter;

/** The adapter of each channel account this process can talk to. */
@FunctionalInterface
public interface AdapterRegistry {

  /**
   * @throws IllegalArgumentException when this process has no adapter for the account
   */
  PspAdapter adapter(long channelAccountId);

  /**
   * Whether this process can talk to the account. Routing only ever picks such accounts: a {@code
   * channel_account} row without an adapter here (another deployment's, a stale one) must never
   * receive a new attempt.
   */
  default boolean serves(long channelAccountId) {
    try {
      return adapter(channelAccountId) != null;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
