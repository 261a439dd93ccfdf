package dev.clearway.psp.wechat;

import java.security.PrivateKey;
import java.util.Objects;

/**
 * One WeChat Pay merchant's credentials: the merchant private key and its certificate serial (to
 * sign requests), the platform public keys by certificate serial (to verify responses and
 * notifications) and the 32-byte APIv3 key (to decrypt notification resources). {@link #toString()}
 * prints no key.
 */
public record WechatCredentials(
    String mchid,
    String appid,
    PrivateKey merchantPrivateKey,
    String merchantSerial,
    WechatPlatformKeys platformKeys,
    byte[] apiV3Key) {

  public WechatCredentials {
    Objects.requireNonNull(mchid, "mchid");
    Objects.requireNonNull(appid, "appid");
    Objects.requireNonNull(merchantPrivateKey, "merchantPrivateKey");
    Objects.requireNonNull(merchantSerial, "merchantSerial");
    Objects.requireNonNull(platformKeys, "platformKeys");
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
  public boolean equals(Object o) {
    return this == o;
  }

  @Override
  public int hashCode() {
    return System.identityHashCode(this);
  }

  @Override
  public String toString() {
    return "WechatCredentials[mchid=" + mchid + ", appid=" + appid + ", keys=***]";
  }
}
