package dev.clearway.sharding;

import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.port.ChannelStores;
import java.util.Set;

/** The one channel account the sharded channel tests pay through: Stripe, cards, enabled. */
final class CardAccount {
  private CardAccount() {}

  /** Creates or replaces account 1 under {@code accountRef}. */
  static void open(ChannelStores stores, String accountRef) {
    stores
        .accounts()
        .upsertAccount(
            new ChannelAccount(1, "stripe", accountRef, "psp:a", Set.of("card"), 1, true));
  }
}
