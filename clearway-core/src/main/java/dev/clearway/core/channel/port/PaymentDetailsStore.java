package dev.clearway.core.channel.port;

import dev.clearway.core.channel.domain.MerchantChannel;
import dev.clearway.core.channel.domain.MethodChoice;
import dev.clearway.core.channel.spi.ClientAction;
import dev.clearway.core.flow.domain.GoalKey;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What the customer's client is given and where each merchant may pay: the client action of an
 * attempt that waits for the customer, kept as the PSP's first answer gave it, and the merchants'
 * channel configurations, and the method each request chose for its goal.
 */
public interface PaymentDetailsStore {

  /** Keeps the first client action of an attempt; a later one for the same attempt is ignored. */
  void saveAction(long attemptId, ClientAction action, Instant now);

  Optional<ClientAction> action(long attemptId);

  /** The merchant's configurations, empty when it has none (it may then use every account). */
  List<MerchantChannel> merchantChannels(String merchant);

  void upsertMerchantChannel(MerchantChannel channel);

  /** Records the method a request chose for {@code goal}, replacing an earlier choice. */
  void saveChoice(GoalKey goal, MethodChoice choice, Instant now);

  Optional<MethodChoice> choice(GoalKey goal);

  /** No actions, no configurations (a layer without this store). */
  PaymentDetailsStore NONE =
      new PaymentDetailsStore() {
        @Override
        public void saveAction(long attemptId, ClientAction action, Instant now) {}

        @Override
        public Optional<ClientAction> action(long attemptId) {
          return Optional.empty();
        }

        @Override
        public List<MerchantChannel> merchantChannels(String merchant) {
          return List.of();
        }

        @Override
        public void upsertMerchantChannel(MerchantChannel channel) {
          throw new UnsupportedOperationException("no payment details store");
        }

        @Override
        public void saveChoice(GoalKey goal, MethodChoice choice, Instant now) {
          throw new UnsupportedOperationException("no payment details store");
        }

        @Override
        public Optional<MethodChoice> choice(GoalKey goal) {
          return Optional.empty();
        }
      };
}
