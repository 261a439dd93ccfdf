package dev.clearway.core.channel.spi;

/**
 * Who a payment is made for and by, beyond the channel account: the sub-merchant when a platform's
 * merchant pays through the platform's PSP account (WeChat Pay's partner mode: the account is the
 * service provider {@code sp_mchid}, this is the {@code sub_mchid}), and the payer's id at the PSP
 * where the method needs one (a WeChat JSAPI payment's {@code openid}). Both may be null; fixed
 * with the attempt, part of its create-request hash.
 */
public record PaymentParty(String subMerchant, String payer) {

  /** A direct payment: no sub-merchant, no payer id. */
  public static final PaymentParty NONE = new PaymentParty(null, null);

  public boolean isNone() {
    return subMerchant == null && payer == null;
  }

  /** In partner mode: the account is a service provider's, paying for {@link #subMerchant()}. */
  public boolean partner() {
    return subMerchant != null;
  }
}
