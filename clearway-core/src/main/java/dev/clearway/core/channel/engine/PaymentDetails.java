package dev.clearway.core.channel.engine;

import dev.clearway.core.channel.decision.MethodAdmission;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.domain.MerchantChannel;
import dev.clearway.core.channel.port.PaymentDetailsStore;
import dev.clearway.core.channel.spi.ClientAction;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The payment details of the channel layer: which accounts may carry a merchant's payment by a
 * method (the create-time check of the API and the gateway's routing decide alike, see {@link
 * MethodAdmission}), and what the customer's client needs to complete a payment that waits for it.
 */
public final class PaymentDetails {

  private final ChannelContext ctx;
  private final PaymentDetailsStore store;
  private final Function<Collection<ChannelAccount>, List<ChannelAccount>> routable;

  PaymentDetails(
      ChannelContext ctx,
      PaymentDetailsStore store,
      Function<Collection<ChannelAccount>, List<ChannelAccount>> routable) {
    this.ctx = ctx;
    this.store = store;
    this.routable = routable;
  }

  /**
   * The accounts that may carry a merchant's payment by {@code method} for {@code amount}, among
   * those this process can route to; a null merchant is routed by the accounts' methods alone.
   */
  public MethodAdmission.Result admit(String merchant, String method, long amount) {
    List<MerchantChannel> configs = merchant == null ? List.of() : store.merchantChannels(merchant);
    return MethodAdmission.evaluate(
        routable.apply(ctx.stores().accounts().accounts()), configs, method, amount);
  }

  /**
   * What the customer's client needs to complete the order's payment while its live attempt waits
   * for the customer; empty otherwise (nothing to do, or the method needs no client action).
   */
  public Optional<ClientAction> clientAction(String tradeOrderNo) {
    return ctx.stores().attempts().attempts(tradeOrderNo).stream()
        .filter(a -> a.status() == AttemptStatus.PENDING && a.customerActionPending())
        .findFirst()
        .flatMap(a -> store.action(a.id()));
  }

  /** Whether the order's live attempt waits for the customer. */
  public boolean awaitsCustomer(String tradeOrderNo) {
    return ctx.stores().attempts().attempts(tradeOrderNo).stream()
        .anyMatch(a -> a.status() == AttemptStatus.PENDING && a.customerActionPending());
  }
}
