package dev.clearway.sim.psp.wechat;

import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.Objects;

/**
 * The credentials of one simulated merchant: the merchant's public key (to verify requests), the
 * platform's private key and certificate serial (to sign responses and notifications) and the
 * 32-byte APIv3 key (to encrypt notification resources). {@link #toString()} prints no key.
 */
public record WechatSimKeys(
    String mchid,
    PublicKey merchantPublicKey,
    PrivateKey platformPrivateKey,
    String platformSerial,
    byte[] apiV3Key) {

  public WechatSimKeys {
    Objects.requireNonNull(mchid, "mchid");
    Objects.requireNonNull(merchantPublicKey, "merchantPublicKey");
    Objects.requireNonNull(platformPrivateKey, "platformPrivateKey");
    Objects.requireNonNull(platformSerial, "platformSerial");
    Objects.requireNonNull(apiV3Key, "apiV3Key");
    if (apiV3Key.length != 32) {
      throw new IllegalArgumentException("the APIv3 key must be 32 bytes");
    }
    apiV3Key = apiV3Key.clone();
  }

  @Override
  public byte[] apiV3Key() {
    return apiV3Key.clone();
  }

  @Override
  public String toString() {
    return "WechatSimKeys[mchid=" + mchid + ", keys=***]";
  }
}
