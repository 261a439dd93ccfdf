package dev.clearway.psp.stripe;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * One Stripe account as the adapter reaches it. {@link #toString()} never prints the keys.
 *
 * @param baseUrl the API root, such as {@code https://api.stripe.com} (no trailing slash needed)
 * @param secretKey the account's secret API key, sent as {@code Authorization: Bearer}
 * @param webhookSecret the signing secret of the webhook endpoint
 * @param connectTimeout how long to wait for a TCP connection
 * @param requestTimeout how long to wait for a complete answer of one request
 * @param clock the clock webhook timestamps are checked against
 * @param webhookTolerance how far a webhook's signed timestamp may be from now, either way
 * @param filesUrl the root report files are served from ({@code https://files.stripe.com}); a
 *     report's file is fetched with the secret key only there or on {@code baseUrl}
 * @param reportWait how long a statement download waits for its report run to succeed
 */
public record StripeConfig(
    URI baseUrl,
    String secretKey,
    String webhookSecret,
    Duration connectTimeout,
    Duration requestTimeout,
    Clock clock,
    Duration webhookTolerance,
    URI filesUrl,
    Duration reportWait) {

  public StripeConfig {
    Objects.requireNonNull(filesUrl, "filesUrl");
    requirePositive(reportWait, "reportWait");
    Objects.requireNonNull(baseUrl, "baseUrl");
    requireText(secretKey, "secretKey");
    requireText(webhookSecret, "webhookSecret");
    requirePositive(connectTimeout, "connectTimeout");
    requirePositive(requestTimeout, "requestTimeout");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(webhookTolerance, "webhookTolerance");
    if (webhookTolerance.isNegative()) {
      throw new IllegalArgumentException("webhookTolerance must not be negative");
    }
  }

  /**
   * Connect 2 s, request 10 s, system clock, webhook tolerance 300 s; report files on {@code
   * baseUrl}, a report run awaited 60 s.
   */
  public static StripeConfig of(URI baseUrl, String secretKey, String webhookSecret) {
    return new StripeConfig(
        baseUrl,
        secretKey,
        webhookSecret,
        Duration.ofSeconds(2),
        Duration.ofSeconds(10),
        Clock.systemUTC(),
        Duration.ofSeconds(300),
        baseUrl,
        Duration.ofSeconds(60));
  }

  public StripeConfig withTimeouts(Duration connect, Duration request) {
    return new StripeConfig(
        baseUrl,
        secretKey,
        webhookSecret,
        connect,
        request,
        clock,
        webhookTolerance,
        filesUrl,
        reportWait);
  }

  public StripeConfig withClock(Clock c) {
    return new StripeConfig(
        baseUrl,
        secretKey,
        webhookSecret,
        connectTimeout,
        requestTimeout,
        c,
        webhookTolerance,
        filesUrl,
        reportWait);
  }

  public StripeConfig withSecretKey(String key) {
    return new StripeConfig(
        baseUrl,
        key,
        webhookSecret,
        connectTimeout,
        requestTimeout,
        clock,
        webhookTolerance,
        filesUrl,
        reportWait);
  }

  public StripeConfig withWebhookSecret(String secret) {
    return new StripeConfig(
        baseUrl,
        secretKey,
        secret,
        connectTimeout,
        requestTimeout,
        clock,
        webhookTolerance,
        filesUrl,
        reportWait);
  }

  public StripeConfig withFilesUrl(URI url) {
    return new StripeConfig(
        baseUrl,
        secretKey,
        webhookSecret,
        connectTimeout,
        requestTimeout,
        clock,
        webhookTolerance,
        url,
        reportWait);
  }

  public StripeConfig withReportWait(Duration wait) {
    return new StripeConfig(
        baseUrl,
        secretKey,
        webhookSecret,
        connectTimeout,
        requestTimeout,
        clock,
        webhookTolerance,
        filesUrl,
        wait);
  }

  @Override
  public String toString() {
    return "StripeConfig[baseUrl=" + baseUrl + ", keys=***]";
  }

  private static void requireText(String value, String name) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException(name + " must not be empty");
    }
  }

  private static void requirePositive(Duration d, String name) {
    Objects.requireNonNull(d, name);
    if (d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException(name + " must be positive");
    }
  }
}
