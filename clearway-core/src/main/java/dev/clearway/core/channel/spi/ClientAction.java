package dev.clearway.core.channel.spi;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What the customer's client needs to complete a payment that waits for the customer: a QR code to
 * show ({@link Kind#WECHAT_NATIVE}: {@code code_url}), the parameters a WeChat JSAPI payment is
 * invoked with ({@link Kind#WECHAT_JSAPI}: {@code appId, timeStamp, nonceStr, package, signType,
 * paySign}, signed by the merchant on the server), or a Stripe-style {@code client_secret} and
 * {@code next_action} ({@link Kind#STRIPE_NEXT_ACTION}). Holds nothing secret: every field is meant
 * for the client.
 */
public record ClientAction(Kind kind, Map<String, String> fields) {

  public enum Kind {
    WECHAT_NATIVE,
    WECHAT_JSAPI,
    STRIPE_NEXT_ACTION
  }

  public ClientAction {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(fields, "fields");
    fields = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(fields));
  }

  public String field(String name) {
    return fields.get(name);
  }
}
