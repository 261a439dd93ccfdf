package dev.clearway.core.channel.domain;

import java.util.Set;

/**
 * One merchant's configuration on one channel account: the methods enabled for that merchant there,
 * the amount limits, and, when the account is a platform's service-provider account, the merchant's
 * sub-merchant id at the PSP (WeChat Pay's {@code sub_mchid}). A merchant with configurations pays
 * only through the accounts they name.
 *
 * @param minAmount the least amount in minor units, null for no lower limit
 * @param maxAmount the greatest amount in minor units, null for no upper limit
 */
public record MerchantChannel(
    String merchant,
    long channelAccountId,
    String subMerchant,
    Set<String> paymentMethods,
    Long minAmount,
    Long maxAmount,
    boolean enabled) {

  public MerchantChannel {
    paymentMethods = Set.copyOf(paymentMethods);
  }

  public boolean enables(String method) {
    return enabled && paymentMethods.contains(method);
  }

  public boolean withinLimits(long amount) {
    return (minAmount == null || amount >= minAmount) && (maxAmount == null || amount <= maxAmount);
  }
}
