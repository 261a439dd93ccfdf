package dev.clearway.sim.psp.wechat;

import java.security.PrivateKey;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The platform key the simulated WeChat Pay signs responses and notifications with, and its serial
 * (sent as {@code Wechatpay-Serial}). WeChat Pay rotates its platform keys: after {@link #rotate}
 * every answer is signed with the new key and names the new serial.
 */
final class PlatformSigner {

  /** One platform key and its certificate serial. */
  record Current(PrivateKey key, String serial) {
    @Override
    public String toString() {
      return "PlatformSigner.Current[serial=" + serial + ", key=***]";
    }
  }

  private final AtomicReference<Current> current;

  PlatformSigner(WechatSimKeys keys) {
    this.current =
        new AtomicReference<>(new Current(keys.platformPrivateKey(), keys.platformSerial()));
  }

  Current current() {
    return current.get();
  }

  void rotate(PrivateKey key, String serial) {
    current.set(new Current(key, serial));
  }
}
