package dev.clearway.psp.wechat;

import java.security.PublicKey;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The WeChat Pay platform public keys one merchant trusts, by certificate serial. WeChat Pay
 * rotates its platform keys: during a rotation both the old and the new serial are configured, and
 * every response and notification is verified with the key its {@code Wechatpay-Serial} header
 * names. A serial not configured here verifies nothing. {@link #toString()} prints serials only.
 */
public record WechatPlatformKeys(Map<String, PublicKey> bySerial) {

  public WechatPlatformKeys {
    Objects.requireNonNull(bySerial, "bySerial");
    if (bySerial.isEmpty()) {
      throw new IllegalArgumentException("at least one platform key is required");
    }
    bySerial.forEach(
        (serial, key) -> {
          if (serial == null || serial.isBlank() || key == null) {
            throw new IllegalArgumentException("a platform key needs a serial and a key");
          }
        });
    bySerial = Map.copyOf(bySerial);
  }

  /** One platform key and its serial. */
  public static WechatPlatformKeys of(String serial, PublicKey key) {
    return new WechatPlatformKeys(Map.of(serial, key));
  }

  /** These keys and one more (the new key of a rotation, or a replacement for the same serial). */
  public WechatPlatformKeys with(String serial, PublicKey key) {
    Map<String, PublicKey> more = new LinkedHashMap<>(bySerial);
    more.put(serial, key);
    return new WechatPlatformKeys(more);
  }

  /** The key of {@code serial}, empty when that serial is not configured (or null). */
  public Optional<PublicKey> key(String serial) {
    return serial == null ? Optional.empty() : Optional.ofNullable(bySerial.get(serial));
  }

  @Override
  public String toString() {
    return "WechatPlatformKeys" + bySerial.keySet();
  }
}
