package dev.clearway.psp.wechat;

/**
 * What the WeChat Pay adapter reports about platform keys, for metrics. Receives the merchant
 * number and the serial only, never a key.
 */
@FunctionalInterface
public interface WechatKeyEvents {

  /**
   * A response or notification named a platform certificate serial that is not configured: it was
   * not trusted (a response is UNKNOWN, a notification refused).
   *
   * @param kind {@code response} or {@code notification}
   */
  void unknownSerial(String mchid, String kind);

  static WechatKeyEvents none() {
    return (mchid, kind) -> {};
  }
}
