package dev.clearway.sharding;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptOrigin;
import dev.clearway.core.channel.domain.PaymentOrder;
import dev.clearway.core.channel.port.AttemptStore.NewAttempt;
import dev.clearway.core.channel.port.AttemptStore.NewTask;
import dev.clearway.core.channel.port.ChannelStores;
import java.time.Instant;

/** The first attempt of a card order in EUR, opened with its order and a recovery task. */
final class OpenAttempts {
  private OpenAttempts() {}

  /**
   * Opens the order {@code trade} of {@code amount} and inserts its first attempt at {@code at}.
   */
  static Attempt first(ChannelStores stores, String trade, long amount, Instant at) {
    stores.orders().openOrder(new PaymentOrder(trade, amount, "EUR", "card", false), at);
    return stores
        .attempts()
        .insertAttempt(
            new NewAttempt(
                trade,
                1,
                AttemptOrigin.INITIAL,
                null,
                "",
                new Attempt.Money(amount, "EUR", "pm_card_visa"),
                id -> new String[] {"key" + id, "0".repeat(64)}),
            new NewTask("RETRIEVE", at.plusSeconds(10), "v1", "creator/1"),
            at)
        .orElseThrow();
  }
}
