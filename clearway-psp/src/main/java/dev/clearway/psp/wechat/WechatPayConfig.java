package dev.clearway.psp.wechat;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * One WeChat Pay channel account as the adapter talks to it.
 *
 * @param baseUrl the API root, such as {@code https://api.mch.weixin.qq.com}, without a trailing
 *     path
 * @param notifyUrl where WeChat Pay posts notifications of this account's orders
 * @param requestTimeout the whole-response timeout of one call; a call that times out is UNKNOWN
 * @param notificationTolerance how far a notification's timestamp may be from now, either way
 */
public record WechatPayConfig(
    URI baseUrl,
    WechatCredentials credentials,
    URI notifyUrl,
    Duration connectTimeout,
    Duration requestTimeout,
    Clock clock,
    Duration notificationTolerance) {

  public static final Duration DEFAULT_TOLERANCE = Duration.ofSeconds(300);

  public WechatPayConfig {
    Objects.requireNonNull(baseUrl, "baseUrl");
    Objects.requireNonNull(credentials, "credentials");
    Objects.requireNonNull(notifyUrl, "notifyUrl");
    Objects.requireNonNull(connectTimeout, "connectTimeout");
    Objects.requireNonNull(requestTimeout, "requestTimeout");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(notificationTolerance, "notificationTolerance");
    if (connectTimeout.isNegative()
        || connectTimeout.isZero()
        || requestTimeout.isNegative()
        || requestTimeout.isZero()
        || notificationTolerance.isNegative()) {
      throw new IllegalArgumentException("timeouts must be positive");
    }
  }

  /** 2 s to connect, 10 s per call, 300 s notification tolerance. */
  public static WechatPayConfig of(
      URI baseUrl, WechatCredentials credentials, URI notifyUrl, Clock clock) {
    return new WechatPayConfig(
        baseUrl,
        credentials,
        notifyUrl,
        Duration.ofSeconds(2),
        Duration.ofSeconds(10),
        clock,
        DEFAULT_TOLERANCE);
  }

  public WechatPayConfig withTimeouts(Duration connect, Duration request) {
    return new WechatPayConfig(
        baseUrl, credentials, notifyUrl, connect, request, clock, notificationTolerance);
  }

  public WechatPayConfig withNotificationTolerance(Duration tolerance) {
    return new WechatPayConfig(
        baseUrl, credentials, notifyUrl, connectTimeout, requestTimeout, clock, tolerance);
  }
}
