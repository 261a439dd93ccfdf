package dev.clearway.core.channel.port;

/**
 * Health of channel accounts for routing new creates only. An open circuit takes an account out of
 * new creates; queries, webhooks and refunds of in-flight attempts are never gated by it (they keep
 * their rate-limited budget).
 */
public interface ChannelHealth {

  boolean admitsCreate(long channelAccountId);

  /** Feeds the outcome of a create: {@code healthy} false for outages and unknown results. */
  void onCreate(long channelAccountId, boolean healthy);

  ChannelHealth ALWAYS =
      new ChannelHealth() {
        @Override
        public boolean admitsCreate(long channelAccountId) {
          return true;
        }

        @Override
        public void onCreate(long channelAccountId, boolean healthy) {}
      };
}
