package dev.clearway.core.channel.port;

import dev.clearway.core.channel.spi.PspAdapter;

/** The adapter of each channel account. */
@FunctionalInterface
public interface AdapterRegistry {
  PspAdapter adapter(long channelAccountId);
}
