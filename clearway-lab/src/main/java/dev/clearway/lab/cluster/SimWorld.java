package dev.clearway.lab.cluster;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.sim.GrantEntry;
import dev.clearway.sim.LedgerEntry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The simulator process ({@code clearway sim}): the wallet, the business system and their ledgers,
 * spoken to over HTTP only. Its ready line names its URLs; its ledgers are the facts the invariants
 * are checked against.
 */
final class SimWorld implements AutoCloseable {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final Process process;
  private final URI wallet;
  private final URI business;
  private final URI ledger;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private SimWorld(Process process, URI wallet, URI business, URI ledger) {
    this.process = process;
    this.wallet = wallet;
    this.business = business;
    this.ledger = ledger;
  }

  /** Starts the simulator process and waits (60 s at most) for its ready line. */
  static SimWorld start(
      JavaProcesses java,
      ClusterOptions options,
      List<URI> callbackTargets,
      Map<String, String> secrets) {
    List<String> args = new ArrayList<>();
    args.add("sim");
    args.add("--port=0");
    args.add("--fault-rate=" + options.faultRate());
    args.add("--seed=" + options.seed());
    callbackTargets.forEach(t -> args.add("--callback-url=" + t));
    Process process =
        java.start("sim", List.of("-Xmx512m", "-XX:+UseSerialGC"), args, secrets, true);
    String line = readyLine(process);
    JsonNode ready = JSON.readTree(line);
    return new SimWorld(
        process,
        URI.create(ready.get("wallet").asString()),
        URI.create(ready.get("business").asString()),
        URI.create(ready.get("ledger").asString()));
  }

  /** The first JSON line of the process's stdout; a thread of its own reads it and the rest. */
  private static String readyLine(Process process) {
    BufferedReader reader =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<String> first = new CompletableFuture<>();
    Thread stdout =
        new Thread(
            () -> {
              try {
                String line;
                while ((line = reader.readLine()) != null) {
                  if (!first.isDone() && line.startsWith("{")) {
                    first.complete(line);
                  }
                }
              } catch (IOException closed) {
                // The process ended.
              }
              first.complete(null);
            },
            "sim-stdout");
    stdout.setDaemon(true);
    stdout.start();
    try {
      String line = first.get(60, TimeUnit.SECONDS);
      if (line == null) {
        throw new IllegalStateException("the simulator process exited before it was ready");
      }
      return line;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted waiting for the simulator process", e);
    } catch (ExecutionException | TimeoutException e) {
      process.destroyForcibly();
      throw new IllegalStateException("the simulator process did not become ready", e);
    }
  }

  URI wallet() {
    return wallet;
  }

  URI business() {
    return business;
  }

  /** Every charge and refund the wallet executed, after settling what was still pending. */
  List<LedgerEntry> walletLedger() {
    List<LedgerEntry> entries = new ArrayList<>();
    for (JsonNode e : get("/wallet-ledger?settle=true")) {
      entries.add(
          new LedgerEntry(
              LedgerEntry.Kind.valueOf(e.get("kind").asString()),
              e.get("orderNo").asString(),
              text(e, "tradeOrderNo"),
              e.get("amount").asLong(),
              Instant.parse(e.get("at").asString())));
    }
    return entries;
  }

  /** Every grant the business committed. */
  List<GrantEntry> businessLedger() {
    List<GrantEntry> grants = new ArrayList<>();
    for (JsonNode g : get("/business-ledger")) {
      grants.add(
          new GrantEntry(
              new GoalKey(
                  g.get("merchant").asString(),
                  g.get("userId").asLong(),
                  g.get("scene").asString(),
                  g.get("bizKey").asString()),
              text(g, "attributedOrderNo"),
              Instant.parse(g.get("at").asString())));
    }
    return grants;
  }

  /** The wallet's calls per epoch second over the last minutes. */
  Map<Long, Integer> walletCallsPerSecond() {
    Map<Long, Integer> calls = new TreeMap<>();
    for (JsonNode s : get("/wallet-calls").get("perSecond")) {
      calls.put(s.get("second").asLong(), s.get("calls").asInt());
    }
    return calls;
  }

  /** The wallet answers 503 to everything for the next {@code seconds}. */
  void walletOutage(int seconds) {
    send(
        HttpRequest.newBuilder(ledger.resolve("/wallet-outage?seconds=" + seconds))
            .POST(HttpRequest.BodyPublishers.noBody())
            .timeout(Duration.ofSeconds(10))
            .build());
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value.asString();
  }

  private JsonNode get(String path) {
    return send(
        HttpRequest.newBuilder(ledger.resolve(path)).timeout(Duration.ofSeconds(60)).build());
  }

  private JsonNode send(HttpRequest request) {
    try {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IllegalStateException(
            request.uri().getPath() + " answered " + response.statusCode());
      }
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException("the simulator process: " + request.uri().getPath(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
