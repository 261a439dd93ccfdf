package dev.clearway.core.channel.engine;

import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;

/**
 * Which payment method a charge uses: the family routing and policies match on ({@code card},
 * {@code wallet}) and the opaque token sent to the PSP (never card data).
 */
@FunctionalInterface
public interface PaymentMethods {

  Choice choose(ChargeRequest request);

  record Choice(String family, String token) {}

  static PaymentMethods fixed(String family, String token) {
    Choice choice = new Choice(family, token);
    return request -> choice;
  }
}
