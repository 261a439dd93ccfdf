package dev.clearway.core.channel.decision;

import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.domain.MerchantChannel;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Which accounts may carry a merchant's payment by a method, for an amount: accounts that accept
 * the method; when the merchant has channel configurations, only the accounts they name, where the
 * method is enabled for the merchant and the amount within the limits. Pure: the create-time check
 * of the API and the routing of the gateway decide alike.
 */
public final class MethodAdmission {

  /** Why nothing admits the payment; stable codes. */
  public enum Refusal {
    /** No account (of the merchant's configurations) carries the method for this merchant. */
    METHOD_NOT_ENABLED,
    /** Accounts carry the method, but none for this amount. */
    AMOUNT_OUT_OF_LIMITS
  }

  /** One account that admits the payment, with the merchant's sub-merchant id there (or null). */
  public record Candidate(ChannelAccount account, String subMerchant) {}

  /** The candidates, or why there are none. */
  public record Result(List<Candidate> candidates, Refusal refusal) {
    public boolean admitted() {
      return refusal == null;
    }

    public Optional<String> subMerchantOf(long accountId) {
      return candidates.stream()
          .filter(c -> c.account().id() == accountId)
          .map(Candidate::subMerchant)
          .filter(s -> s != null)
          .findFirst();
    }
  }

  private MethodAdmission() {}

  public static Result evaluate(
      Collection<ChannelAccount> accounts,
      List<MerchantChannel> configs,
      String method,
      long amount) {
    List<ChannelAccount> carrying = accounts.stream().filter(a -> a.accepts(method)).toList();
    if (configs.isEmpty()) {
      List<Candidate> all = carrying.stream().map(a -> new Candidate(a, null)).toList();
      return all.isEmpty()
          ? new Result(List.of(), Refusal.METHOD_NOT_ENABLED)
          : new Result(all, null);
    }
    Map<Long, MerchantChannel> byAccount =
        configs.stream()
            .collect(
                Collectors.toMap(
                    MerchantChannel::channelAccountId, Function.identity(), (a, b) -> a));
    List<ChannelAccount> enabled =
        carrying.stream()
            .filter(a -> byAccount.containsKey(a.id()) && byAccount.get(a.id()).enables(method))
            .toList();
    if (enabled.isEmpty()) {
      return new Result(List.of(), Refusal.METHOD_NOT_ENABLED);
    }
    List<Candidate> within =
        enabled.stream()
            .filter(a -> byAccount.get(a.id()).withinLimits(amount))
            .map(a -> new Candidate(a, byAccount.get(a.id()).subMerchant()))
            .toList();
    return within.isEmpty()
        ? new Result(List.of(), Refusal.AMOUNT_OUT_OF_LIMITS)
        : new Result(within, null);
  }
}
