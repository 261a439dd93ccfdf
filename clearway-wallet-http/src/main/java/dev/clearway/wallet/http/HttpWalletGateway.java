package dev.clearway.wallet.http;

import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.flow.port.WalletGateway;
import dev.clearway.core.runtime.BoundedHttp;
import dev.clearway.core.statement.Statement;
import dev.clearway.core.statement.StatementFormat;
import dev.clearway.core.statement.StatementSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The wallet over HTTP ({@link WireProtocol}), idempotent by trade and refund order number like the
 * wallet behind it. Never throws for transport problems: a timeout, a refused or reset connection,
 * a 5xx, an unreadable body are UNKNOWN, since the wallet may have executed the call; only a
 * well-formed answer is definite (see {@link WalletResponses}).
 *
 * <p>The wallet's daily statement ({@link #downloadStatement}) is the one call that throws: there
 * is no certainty to answer with, and the caller retries the download.
 *
 * <p>Logs only the call, its outcome class, error code, HTTP status and duration, at DEBUG: never
 * order numbers (they embed the user id), amounts, bodies or secrets.
 */
public final class HttpWalletGateway implements WalletGateway, StatementSource {
  private static final Logger log = LoggerFactory.getLogger(HttpWalletGateway.class);
  private static final long MAX_RESPONSE_BYTES = 1 << 20;

  private final HttpWalletConfig config;
  private final HttpClient client;
  private final String base;

  public HttpWalletGateway(HttpWalletConfig config) {
    this.config = config;
    this.client =
        BoundedHttp.client("wallet", config.connectTimeout(), BoundedHttp.defaultThreads());
    String url = config.baseUrl().toString();
    this.base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  @Override
  public WalletResult pay(ChargeRequest request) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("tradeOrderNo", request.tradeOrderNo());
    body.put("userId", request.userId());
    body.put("amount", request.amount());
    body.put("currency", request.currency());
    return post(
        WalletCall.PAY, WireProtocol.CHARGES, request.tradeOrderNo(), WalletJson.write(body));
  }

  @Override
  public WalletResult queryPayment(String tradeOrderNo) {
    return get(WalletCall.QUERY_PAY, WireProtocol.CHARGES + "/" + segment(tradeOrderNo));
  }

  @Override
  public WalletResult closePayment(String tradeOrderNo) {
    String path = WireProtocol.CHARGES + "/" + segment(tradeOrderNo) + WireProtocol.CLOSE_SUFFIX;
    return post(WalletCall.CLOSE, path, tradeOrderNo, "{}");
  }

  @Override
  public WalletResult refund(RefundRequest request) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("refundOrderNo", request.refundOrderNo());
    body.put("tradeOrderNo", request.tradeOrderNo());
    body.put("amount", request.amount());
    body.put("currency", request.currency());
    return post(
        WalletCall.REFUND, WireProtocol.REFUNDS, request.refundOrderNo(), WalletJson.write(body));
  }

  @Override
  public WalletResult queryRefund(String refundOrderNo) {
    return get(WalletCall.QUERY_REFUND, WireProtocol.REFUNDS + "/" + segment(refundOrderNo));
  }

  /**
   * {@code GET /v1/statements/{day}}: the wallet-csv statement of the UTC day, with the SHA-256 the
   * wallet announced in {@code Content-Digest} (the importer checks it).
   *
   * @throws UncheckedIOException when the wallet cannot be reached, answers other than 200 or
   *     announces no digest
   */
  @Override
  public Statement downloadStatement(String accountRef, LocalDate day) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(base + WireProtocol.STATEMENTS + "/" + day))
            .timeout(config.readTimeout())
            .header("Accept", "text/csv")
            .GET()
            .build();
    HttpResponse<byte[]> response;
    try {
      response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new UncheckedIOException(
          new IOException("statement download failed: " + transportCode(e), e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UncheckedIOException(new IOException("statement download interrupted", e));
    }
    if (response.statusCode() != 200) {
      throw new UncheckedIOException(
          new IOException("statement download answered " + response.statusCode()));
    }
    String digest =
        sha256Hex(response.headers().firstValue(WireProtocol.CONTENT_DIGEST_HEADER).orElse(null));
    if (digest == null) {
      throw new UncheckedIOException(new IOException("the statement carries no sha-256 digest"));
    }
    return new Statement(StatementFormat.WALLET_CSV, response.body(), digest, "SHA256");
  }

  /** The hex SHA-256 of a {@code Content-Digest} header ({@code sha-256=:<base64>:}), or null. */
  static String sha256Hex(String header) {
    if (header == null) {
      return null;
    }
    for (String member : header.split(",")) {
      String m = member.trim();
      if (m.startsWith("sha-256=:") && m.endsWith(":") && m.length() > "sha-256=::".length()) {
        try {
          byte[] raw = Base64.getDecoder().decode(m.substring(9, m.length() - 1));
          return raw.length == 32 ? HexFormat.of().formatHex(raw) : null;
        } catch (IllegalArgumentException e) {
          return null;
        }
      }
    }
    return null;
  }

  // ---- transport -----------------------------------------------------------------------------

  private WalletResult post(WalletCall call, String path, String idempotencyKey, String json) {
    return exchange(
        call,
        () ->
            builder(path)
                .header("Content-Type", WireProtocol.JSON)
                .header(WireProtocol.IDEMPOTENCY_KEY_HEADER, idempotencyKey)
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build());
  }

  private WalletResult get(WalletCall call, String path) {
    return exchange(call, () -> builder(path).GET().build());
  }

  private HttpRequest.Builder builder(String path) {
    return HttpRequest.newBuilder(URI.create(base + path))
        .timeout(config.readTimeout())
        .header("Accept", "application/json");
  }

  private interface RequestFactory {
    HttpRequest build();
  }

  private WalletResult exchange(WalletCall call, RequestFactory factory) {
    long start = System.nanoTime();
    int status = 0;
    WalletResult result;
    try {
      // The request timeout ends at the response headers; this bounds the body as well.
      HttpResponse<byte[]> response =
          BoundedHttp.exchange(
              client,
              factory.build(),
              MAX_RESPONSE_BYTES,
              config.connectTimeout().plus(config.readTimeout()));
      status = response.statusCode();
      result =
          WalletResponses.classify(
              call,
              status,
              response.headers().firstValue("Content-Type").orElse(null),
              response.body() == null ? new byte[0] : response.body());
    } catch (IOException e) {
      result = WalletResult.unknown(transportCode(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      result = WalletResult.unknown("INTERRUPTED");
    } catch (RuntimeException e) {
      // A request that cannot even be built or sent: still no claim about the wallet.
      result = WalletResult.unknown("CLIENT_ERROR");
    }
    if (log.isDebugEnabled()) {
      long ms = (System.nanoTime() - start) / 1_000_000;
      // No order numbers, amounts, bodies or secrets.
      log.debug(
          "wallet {} -> {} {} (http {}, {} ms)",
          call,
          result.certainty(),
          result.errorCode(),
          status,
          ms);
    }
    return result;
  }

  private static String transportCode(Throwable cause) {
    while (cause instanceof CompletionException && cause.getCause() != null) {
      cause = cause.getCause();
    }
    if (cause instanceof HttpConnectTimeoutException) {
      return "CONNECT_TIMEOUT";
    }
    if (cause instanceof HttpTimeoutException) {
      return "TIMEOUT";
    }
    if (cause instanceof ConnectException) {
      return "CONNECTION_REFUSED";
    }
    if (cause instanceof IOException) {
      return "CONNECTION_RESET";
    }
    return "CLIENT_ERROR";
  }

  /** Order numbers are {@code [A-Za-z0-9_-]}; anything else is percent-encoded, never trusted. */
  private static String segment(String orderNo) {
    if (WireProtocol.isOrderNo(orderNo)) {
      return orderNo;
    }
    StringBuilder out = new StringBuilder();
    for (byte b : String.valueOf(orderNo).getBytes(StandardCharsets.UTF_8)) {
      out.append('%').append(String.format("%02X", b & 0xff));
    }
    return out.toString();
  }
}
