package dev.clearway.wallet.http;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * Where the wallet is and how long to wait for it.
 *
 * @param baseUrl e.g. {@code http://127.0.0.1:9090}; paths of the wire protocol are appended
 * @param connectTimeout to establish a connection
 * @param readTimeout from sending the request to the complete answer; beyond it the call is UNKNOWN
 *     (the wallet may still execute it)
 */
public record HttpWalletConfig(URI baseUrl, Duration connectTimeout, Duration readTimeout) {
  public HttpWalletConfig {
    Objects.requireNonNull(baseUrl, "baseUrl");
    String scheme = baseUrl.getScheme();
    if (!"http".equals(scheme) && !"https".equals(scheme)) {
      throw new IllegalArgumentException("the wallet base URL must be http or https");
    }
    if (baseUrl.getHost() == null) {
      throw new IllegalArgumentException("the wallet base URL needs a host");
    }
    requirePositive(connectTimeout, "connectTimeout");
    requirePositive(readTimeout, "readTimeout");
  }

  /** Connect within 1 s, answer within 2 s. */
  public static HttpWalletConfig of(URI baseUrl) {
    return new HttpWalletConfig(baseUrl, Duration.ofSeconds(1), Duration.ofSeconds(2));
  }

  public HttpWalletConfig withReadTimeout(Duration timeout) {
    return new HttpWalletConfig(baseUrl, connectTimeout, timeout);
  }

  private static void requirePositive(Duration d, String name) {
    if (d == null || d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException(name + " must be positive");
    }
  }
}
