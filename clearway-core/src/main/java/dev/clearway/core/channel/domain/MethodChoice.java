package dev.clearway.core.channel.domain;

import java.util.Objects;

/**
 * The payment method a merchant's request chose for a goal ({@code wallet}, {@code card}, {@code
 * wechat_native}, {@code wechat_jsapi}, ...) and the payer's id at the PSP where the method needs
 * one (a JSAPI openid), else null; {@code token} is an opaque PSP token of the method such as
 * {@code pm_card_visa} (never card data), or null.
 */
public record MethodChoice(String method, String token, String payer) {
  public MethodChoice {
    Objects.requireNonNull(method, "method");
  }

  /** The opaque token sent to the PSP: the request's token, else the method itself. */
  public String tokenOrMethod() {
    return token != null ? token : method;
  }
}
