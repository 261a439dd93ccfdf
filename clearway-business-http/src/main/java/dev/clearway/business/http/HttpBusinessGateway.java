package dev.clearway.business.http;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.fact.BizCallResult;
import dev.clearway.core.flow.fact.BizFact;
import dev.clearway.core.flow.port.BusinessGateway;
import dev.clearway.core.runtime.BoundedHttp;
import dev.clearway.core.signature.WebhookSignature;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletionException;

/**
 * The business system over HTTP ({@link BusinessProtocol}). Never throws for transport problems: a
 * timeout, a refused or reset connection, a 5xx, an answer whose signature does not verify, an
 * unreadable body are UNKNOWN (a fact: UNREADABLE), since the business may have executed the call;
 * only a signed, well-formed answer of the contract is definite (see {@link BusinessResponses}).
 *
 * <p>Logs only the call, its outcome, HTTP status and duration, at DEBUG: never goals, order
 * numbers, bodies or the secret.
 */
public final class HttpBusinessGateway implements BusinessGateway {
  private static final System.Logger log = System.getLogger(HttpBusinessGateway.class.getName());
  private static final long MAX_RESPONSE_BYTES = 1 << 20;

  private final HttpBusinessConfig config;
  private final Clock clock;
  private final HttpClient client;
  private final String base;

  private HttpBusinessGateway(HttpBusinessConfig config, Clock clock) {
    this.config = config;
    this.clock = clock;
    this.client =
        BoundedHttp.client("business", config.connectTimeout(), BoundedHttp.defaultThreads());
    String url = config.baseUrl().toString();
    this.base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  /** Signs with the system clock and checks answers' timestamps against it. */
  public static HttpBusinessGateway of(HttpBusinessConfig config) {
    return new HttpBusinessGateway(config, Clock.systemUTC());
  }

  /** Signs with {@code clock} and checks answers' timestamps against it. */
  public static HttpBusinessGateway withClock(HttpBusinessConfig config, Clock clock) {
    return new HttpBusinessGateway(config, clock);
  }

  @Override
  public BizCallResult fulfil(GoalKey goal, String tradeOrderNo, Instant deadline) {
    Map<String, Object> body = goalFields(goal);
    body.put("tradeOrderNo", tradeOrderNo);
    body.put("deadline", deadline.toString());
    long start = System.nanoTime();
    Answer answer = exchange(BusinessProtocol.FULFILMENTS, BusinessJson.write(body));
    BizCallResult result =
        answer.reply() == null
            ? BizCallResult.UNKNOWN
            : BusinessResponses.fulfilment(answer.reply(), tradeOrderNo);
    logCall("fulfil", result.name(), answer, start);
    return result;
  }

  @Override
  public BizFact readFact(GoalKey goal) {
    long start = System.nanoTime();
    Answer answer = exchange(BusinessProtocol.FACT, BusinessJson.write(goalFields(goal)));
    BizFact fact =
        answer.reply() == null
            ? BizFact.unreadable("BIZ_" + answer.failure())
            : BusinessResponses.fact(answer.reply());
    logCall("fact", fact.state() + " " + fact.errorCode(), answer, start);
    return fact;
  }

  private static Map<String, Object> goalFields(GoalKey goal) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("merchant", goal.merchant());
    body.put("userId", goal.userId());
    body.put("scene", goal.scene());
    body.put("bizKey", goal.bizKey());
    return body;
  }

  // ---- transport -----------------------------------------------------------------------------

  /** A verified reply, or the reason there is none. */
  private record Answer(BusinessResponses.Reply reply, String failure, int httpStatus) {
    static Answer failed(String failure, int httpStatus) {
      return new Answer(null, failure, httpStatus);
    }
  }

  private Answer exchange(String path, byte[] json) {
    String requestId = UUID.randomUUID().toString();
    try {
      String signature =
          WebhookSignature.sign(
              BusinessProtocol.requestSigned("POST", path, json), clock.instant(), config.secret());
      HttpRequest request =
          HttpRequest.newBuilder(URI.create(base + path))
              .timeout(config.requestTimeout())
              .header("Accept", "application/json")
              .header("Content-Type", BusinessProtocol.JSON)
              .header(BusinessProtocol.REQUEST_ID_HEADER, requestId)
              .header(BusinessProtocol.SIGNATURE_HEADER, signature)
              .POST(HttpRequest.BodyPublishers.ofByteArray(json))
              .build();
      // The request timeout ends at the response headers; this bounds the body as well.
      HttpResponse<byte[]> response =
          BoundedHttp.exchange(
              client,
              request,
              MAX_RESPONSE_BYTES,
              config.connectTimeout().plus(config.requestTimeout()));
      return verified(requestId, response);
    } catch (IOException e) {
      return Answer.failed(transportCode(e), 0);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Answer.failed("INTERRUPTED", 0);
    } catch (RuntimeException e) {
      // A request that cannot even be built or sent: still no claim about the business.
      return Answer.failed("CLIENT_ERROR", 0);
    }
  }

  /** An answer counts only if its signature covers this request id, its status and its body. */
  private Answer verified(String requestId, HttpResponse<byte[]> response) {
    int status = response.statusCode();
    byte[] body = response.body() == null ? new byte[0] : response.body();
    String header = response.headers().firstValue(BusinessProtocol.SIGNATURE_HEADER).orElse(null);
    WebhookSignature.Result check =
        WebhookSignature.verify(
            header,
            BusinessProtocol.responseSigned(requestId, status, body),
            config.secret(),
            clock.instant());
    if (check != WebhookSignature.Result.VALID) {
      // A 5xx page of a proxy is unsigned too: name the status, the outcome is the same.
      return Answer.failed(status >= 500 ? "HTTP_" + status : "BAD_SIGNATURE", status);
    }
    String contentType = response.headers().firstValue("Content-Type").orElse(null);
    return new Answer(new BusinessResponses.Reply(status, contentType, body), null, status);
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

  private static void logCall(String call, String outcome, Answer answer, long start) {
    if (log.isLoggable(System.Logger.Level.DEBUG)) {
      long ms = (System.nanoTime() - start) / 1_000_000;
      log.log(
          System.Logger.Level.DEBUG,
          "business {0} -> {1} {2} (http {3}, {4} ms)",
          call,
          outcome,
          answer.failure() == null ? "" : answer.failure(),
          answer.httpStatus(),
          ms);
    }
  }
}
