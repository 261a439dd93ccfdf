package dev.clearway.psp.policy;

import dev.clearway.core.channel.spi.RecoveryCapabilities;
import java.util.Map;

/**
 * The recovery capabilities of the channels Clearway ships adapters for, as policies are validated
 * against them. Stripe: idempotent replay, retrieve, search, settlement reports; its webhooks carry
 * no ordering guarantee and are not authoritative on their own. WeChat Pay: all five, notifications
 * included (signed, retried on a documented schedule).
 */
public final class ChannelCapabilities {

  public static final String STRIPE_CHANNEL = "stripe";
  public static final String WECHAT_CHANNEL = "wechat";

  public static final RecoveryCapabilities STRIPE =
      new RecoveryCapabilities(true, true, true, false, true);

  public static final RecoveryCapabilities WECHAT =
      new RecoveryCapabilities(true, true, true, true, true);

  private ChannelCapabilities() {}

  /** Both channels by name, for {@code PolicyValidator} and {@code PolicyRegistry}. */
  public static Map<String, RecoveryCapabilities> all() {
    return Map.of(STRIPE_CHANNEL, STRIPE, WECHAT_CHANNEL, WECHAT);
  }
}
