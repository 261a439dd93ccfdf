package dev.clearway.psp.wechat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Sends signed WeChat Pay v3 requests and verifies the platform signature of every answer with the
 * platform key its {@code Wechatpay-Serial} names. Never throws: transport problems and
 * unverifiable answers come back as a failed {@link WechatReply}. Neither keys nor signatures
 * appear in any message.
 */
final class WechatHttp {
  private static final String SCHEMA = "WECHATPAY2-SHA256-RSA2048";

  private final WechatPayConfig config;
  private final WechatCredentials credentials;
  private final HttpClient client;
  private final JsonMapper json;
  private final String base;
  private final WechatKeyEvents keyEvents;

  WechatHttp(WechatPayConfig config, JsonMapper json, WechatKeyEvents keyEvents) {
    this.config = config;
    this.keyEvents = keyEvents;
    this.credentials = config.credentials();
    this.json = json;
    String b = config.baseUrl().toString();
    this.base = b.endsWith("/") ? b.substring(0, b.length() - 1) : b;
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(config.connectTimeout())
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  WechatReply get(String pathAndQuery) {
    return send("GET", pathAndQuery, "");
  }

  WechatReply post(String path, Object body) {
    return send("POST", path, json.writeValueAsString(body));
  }

  /**
   * Downloads a file WeChat Pay pointed to ({@code download_url}), with a signed GET. The file is
   * not signed; its announced hash vouches for it. Only URLs on the configured base are fetched, so
   * the merchant's signature never goes to another host.
   *
   * @throws UncheckedIOException when the download fails or answers other than 200
   */
  byte[] download(String url) {
    if (!url.startsWith(base + "/")) {
      throw new UncheckedIOException(new IOException("download_url is not on the PSP's base URL"));
    }
    URI uri = URI.create(url);
    String signedUrl =
        uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    HttpRequest request =
        HttpRequest.newBuilder(uri)
            .timeout(config.requestTimeout())
            .header("Authorization", authorization("GET", signedUrl, ""))
            .GET()
            .build();
    try {
      HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
      if (response.statusCode() != 200) {
        throw new IOException("download answered " + response.statusCode());
      }
      return response.body();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UncheckedIOException(new IOException("interrupted", e));
    }
  }

  private WechatReply send(String method, String pathAndQuery, String body) {
    URI uri = URI.create(base + pathAndQuery);
    String signedUrl =
        uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .timeout(config.requestTimeout())
            .header("Accept", "application/json")
            .header("Authorization", authorization(method, signedUrl, body));
    if (method.equals("POST")) {
      request
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    } else {
      request.GET();
    }
    HttpResponse<byte[]> response;
    try {
      response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (HttpTimeoutException e) {
      return WechatReply.failed("TIMEOUT");
    } catch (IOException e) {
      return WechatReply.failed("IO_ERROR");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return WechatReply.failed("INTERRUPTED");
    }
    return reply(response);
  }

  private WechatReply reply(HttpResponse<byte[]> response) {
    byte[] body = response.body() == null ? new byte[0] : response.body();
    String requestId = response.headers().firstValue("Request-ID").orElse(null);
    String rawHash = WechatSignatures.sha256Hex(body);
    String serial = response.headers().firstValue("Wechatpay-Serial").orElse(null);
    java.util.Optional<java.security.PublicKey> key = credentials.platformKeys().key(serial);
    if (key.isEmpty()) {
      // Signed (if at all) with a key this merchant does not trust: the answer proves nothing,
      // so the call's result is unknown and the caller queries again.
      keyEvents.unknownSerial(credentials.mchid(), "response");
      return new WechatReply(
          "UNKNOWN_PLATFORM_SERIAL", response.statusCode(), null, requestId, rawHash);
    }
    boolean authentic =
        WechatSignatures.verifyPlatform(
            key.get(),
            response.headers().firstValue("Wechatpay-Timestamp").orElse(null),
            response.headers().firstValue("Wechatpay-Nonce").orElse(null),
            body,
            response.headers().firstValue("Wechatpay-Signature").orElse(null));
    if (!authentic) {
      return new WechatReply("BAD_SIGNATURE", response.statusCode(), null, requestId, rawHash);
    }
    JsonNode node = null;
    if (body.length > 0) {
      try {
        node = json.readTree(body);
      } catch (JacksonException notJson) {
        node = null;
      }
    }
    return new WechatReply(null, response.statusCode(), node, requestId, rawHash);
  }

  private String authorization(String method, String url, String body) {
    String timestamp = Long.toString(config.clock().instant().getEpochSecond());
    String nonce = WechatSignatures.nonce(32);
    String message = method + "\n" + url + "\n" + timestamp + "\n" + nonce + "\n" + body + "\n";
    String signature = WechatSignatures.sign(credentials.merchantPrivateKey(), message);
    return SCHEMA
        + " mchid=\""
        + credentials.mchid()
        + "\",nonce_str=\""
        + nonce
        + "\",signature=\""
        + signature
        + "\",timestamp=\""
        + timestamp
        + "\",serial_no=\""
        + credentials.merchantSerial()
        + "\"";
  }
}
