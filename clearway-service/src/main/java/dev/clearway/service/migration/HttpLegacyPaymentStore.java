package dev.clearway.service.migration;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.migration.domain.LegacyAnswer;
import dev.clearway.core.migration.port.LegacyPaymentStore;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The legacy payment store asked over HTTP: {@code GET
 * {url}?merchant=..&userId=..&scene=..&bizKey=..} answers 200 with {@code {"inFlight": true,
 * "reference": "..."}} or {@code {"inFlight": false}}. Anything else (another status, a body
 * without a boolean {@code inFlight}, a refused connection, no whole answer within the probe
 * timeout) is unknown, never clear. The timeout bounds the whole exchange, the body included: a
 * store that sends its headers and then stalls is as unknown as one that never answers.
 */
public final class HttpLegacyPaymentStore implements LegacyPaymentStore {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final HttpClient http;
  private final URI url;
  private final Duration timeout;

  public HttpLegacyPaymentStore(URI url, Duration timeout) {
    this.url = url;
    this.timeout = timeout;
    this.http =
        HttpClient.newBuilder()
            .connectTimeout(timeout)
            .version(HttpClient.Version.HTTP_1_1)
            .build();
  }

  @Override
  public LegacyAnswer probe(GoalKey goal) {
    URI uri =
        URI.create(
            url
                + (url.getRawQuery() == null ? "?" : "&")
                + "merchant="
                + encode(goal.merchant())
                + "&userId="
                + goal.userId()
                + "&scene="
                + encode(goal.scene())
                + "&bizKey="
                + encode(goal.bizKey()));
    HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout).GET().build();
    // How far the request timeout reaches into the body is the JDK's; this wait bounds it all.
    CompletableFuture<HttpResponse<String>> exchange =
        http.sendAsync(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    try {
      HttpResponse<String> response = exchange.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (response.statusCode() != 200) {
        return LegacyAnswer.unknown("legacy store: HTTP " + response.statusCode());
      }
      return read(response.body());
    } catch (TimeoutException e) {
      exchange.cancel(true);
      return LegacyAnswer.unknown("legacy store: no answer within " + timeout.toMillis() + " ms");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      return LegacyAnswer.unknown("legacy store: " + cause.getClass().getSimpleName());
    } catch (RuntimeException e) {
      return LegacyAnswer.unknown("legacy store: " + e.getClass().getSimpleName());
    } catch (InterruptedException e) {
      exchange.cancel(true);
      Thread.currentThread().interrupt();
      return LegacyAnswer.unknown("legacy store: interrupted");
    }
  }

  private static LegacyAnswer read(String body) {
    JsonNode node = JSON.readTree(body);
    JsonNode inFlight = node.get("inFlight");
    if (inFlight == null || !inFlight.isBoolean()) {
      return LegacyAnswer.unknown("legacy store: no inFlight in the answer");
    }
    if (!inFlight.booleanValue()) {
      return LegacyAnswer.clear();
    }
    JsonNode reference = node.get("reference");
    return LegacyAnswer.inFlight(
        reference == null || reference.isNull() ? "" : reference.asString());
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
