package dev.clearway.core.channel.engine;

import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;

/**
 * Which payment method a charge uses: the family routing and policies match on ({@code card},
 * {@code wallet}, {@code wechat_native}, {@code wechat_jsapi}) and the opaque token sent to the PSP
 * (never card data); with the merchant whose channel configurations route it and the payer's id at
 * the PSP where the method needs one (null otherwise).
 */
@FunctionalInterface
public interface PaymentMethods {

  Choice choose(ChargeRequest request);

  record Choice(String family, String token, String merchant, String payer) {
    /** A method for any merchant, with no payer id. */
    public Choice(String family, String token) {
      this(family, token, null, null);
    }
  }

  static PaymentMethods fixed(String family, String token) {
    Choice choice = new Choice(family, token);
    return request -> choice;
  }
}
