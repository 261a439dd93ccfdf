package dev.clearway.business.http;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * Where the business system is, the shared secret both sides sign with, and how long to wait.
 *
 * @param baseUrl e.g. {@code https://renewals.internal}; the contract's paths are appended
 * @param secret the HMAC-SHA256 key of requests and answers
 * @param connectTimeout to establish a connection
 * @param requestTimeout from sending the request to the complete answer; beyond it the call is
 *     UNKNOWN (the business may still execute it)
 */
public record HttpBusinessConfig(
    URI baseUrl, String secret, Duration connectTimeout, Duration requestTimeout) {
  public HttpBusinessConfig {
    Objects.requireNonNull(baseUrl, "baseUrl");
    String scheme = baseUrl.getScheme();
    if (!"http".equals(scheme) && !"https".equals(scheme)) {
      throw new IllegalArgumentException("the business base URL must be http or https");
    }
    if (baseUrl.getHost() == null) {
      throw new IllegalArgumentException("the business base URL needs a host");
    }
    if (secret == null || secret.isBlank()) {
      throw new IllegalArgumentException("the business secret must not be empty");
    }
    requirePositive(connectTimeout, "connectTimeout");
    requirePositive(requestTimeout, "requestTimeout");
  }

  /** Connect within 1 s, answer within 2 s. */
  public static HttpBusinessConfig of(URI baseUrl, String secret) {
    return new HttpBusinessConfig(baseUrl, secret, Duration.ofSeconds(1), Duration.ofSeconds(2));
  }

  public HttpBusinessConfig withConnectTimeout(Duration timeout) {
    return new HttpBusinessConfig(baseUrl, secret, timeout, requestTimeout);
  }

  public HttpBusinessConfig withRequestTimeout(Duration timeout) {
    return new HttpBusinessConfig(baseUrl, secret, connectTimeout, timeout);
  }

  /** Never prints the secret. */
  @Override
  public String toString() {
    return "HttpBusinessConfig[baseUrl="
        + baseUrl
        + ", secret=***, connectTimeout="
        + connectTimeout
        + ", requestTimeout="
        + requestTimeout
        + "]";
  }

  private static void requirePositive(Duration d, String name) {
    if (d == null || d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException(name + " must be positive");
    }
  }
}
