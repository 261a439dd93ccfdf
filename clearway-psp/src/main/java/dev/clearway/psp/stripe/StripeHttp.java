package dev.clearway.psp.stripe;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The HTTP transport of one Stripe account: form-encoded requests with the bearer key, answers
 * reduced to a {@link StripeReply}. Never throws: a refused connection, a timeout, a dropped
 * connection and an unparseable body are all answers too. Never logs.
 */
final class StripeHttp {
  private static final String STRIPE_VERSION = "2024-06-20";

  private final StripeConfig config;
  private final HttpClient client;
  private final JsonMapper json;

  StripeHttp(StripeConfig config, JsonMapper json) {
    this.config = config;
    this.json = json;
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(config.connectTimeout())
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  /** POST with form parameters (in the given order) and an optional idempotency key. */
  StripeReply post(String path, Map<String, String> form, String idempotencyKey) {
    HttpRequest.Builder request =
        base(path)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(encode(form)));
    if (idempotencyKey != null) {
      request.header("Idempotency-Key", idempotencyKey);
    }
    return exchange(request);
  }

  /** GET with query parameters. */
  StripeReply get(String path, Map<String, String> query) {
    String suffix = query.isEmpty() ? "" : "?" + encode(query);
    return exchange(base(path + suffix).GET());
  }

  /**
   * Fetches a file Stripe pointed to, with the secret key: only a URL under the API root or the
   * files root is fetched, so the key never goes to another host.
   *
   * @throws UncheckedIOException when the URL is elsewhere, the transfer fails or the answer is not
   *     200
   */
  byte[] download(String url) {
    if (!under(url, config.baseUrl()) && !under(url, config.filesUrl())) {
      throw new UncheckedIOException(new IOException("the file URL is not on a Stripe root"));
    }
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(config.requestTimeout())
            .header("Authorization", "Bearer " + config.secretKey())
            .header("Stripe-Version", STRIPE_VERSION)
            .header("User-Agent", "Clearway")
            .GET()
            .build();
    try {
      HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
      if (response.statusCode() != 200) {
        throw new IOException("file download answered " + response.statusCode());
      }
      return response.body();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UncheckedIOException(new IOException("interrupted", e));
    }
  }

  private static boolean under(String url, URI root) {
    String r = root.toString();
    String prefix = r.endsWith("/") ? r : r + "/";
    return url.startsWith(prefix);
  }

  private HttpRequest.Builder base(String pathAndQuery) {
    String root = config.baseUrl().toString();
    if (root.endsWith("/")) {
      root = root.substring(0, root.length() - 1);
    }
    return HttpRequest.newBuilder(URI.create(root + pathAndQuery))
        .timeout(config.requestTimeout())
        .header("Authorization", "Bearer " + config.secretKey())
        .header("Stripe-Version", STRIPE_VERSION)
        .header("User-Agent", "Clearway");
  }

  private StripeReply exchange(HttpRequest.Builder builder) {
    HttpResponse<byte[]> response;
    try {
      response = client.send(builder.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (HttpConnectTimeoutException e) {
      return StripeReply.failed("connect_timeout");
    } catch (HttpTimeoutException e) {
      return StripeReply.failed("timeout");
    } catch (ConnectException e) {
      return StripeReply.failed("connect_failed");
    } catch (IOException e) {
      return StripeReply.failed("connection_lost");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return StripeReply.failed("interrupted");
    } catch (RuntimeException e) {
      return StripeReply.failed("client_error");
    }
    byte[] body = response.body() == null ? new byte[0] : response.body();
    String requestId = response.headers().firstValue("Request-Id").orElse(null);
    return new StripeReply(response.statusCode(), parse(body), requestId, sha256(body), null);
  }

  private JsonNode parse(byte[] body) {
    try {
      JsonNode node = json.readTree(body);
      return node != null && node.isObject() ? node : null;
    } catch (JacksonException e) {
      return null;
    }
  }

  static String sha256(byte[] body) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }

  private static String encode(Map<String, String> params) {
    StringBuilder out = new StringBuilder();
    params.forEach(
        (name, value) -> {
          if (value == null) {
            return;
          }
          if (out.length() > 0) {
            out.append('&');
          }
          out.append(URLEncoder.encode(name, StandardCharsets.UTF_8))
              .append('=')
              .append(URLEncoder.encode(value, StandardCharsets.UTF_8));
        });
    return out.toString();
  }
}
