package dev.clearway.lab.cluster;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One engine node: {@code clearway serve} in a JVM of its own on a fixed port, killed with SIGKILL
 * and started again on the same port. Its counters live in its process, so they are scraped before
 * each kill and added up over its lives.
 */
final class EngineNode {
  private final String name;
  private final int port;
  private final JavaProcesses java;
  private final List<String> jvmOptions;
  private final List<String> args;
  private final Map<String, String> env;
  private final NodeMetrics metrics;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
  private volatile Process process;

  EngineNode(
      String name,
      int port,
      JavaProcesses java,
      List<String> jvmOptions,
      List<String> args,
      Map<String, String> env,
      NodeMetrics metrics) {
    this.name = name;
    this.port = port;
    this.java = java;
    this.jvmOptions = jvmOptions;
    this.args = args;
    this.env = env;
    this.metrics = metrics;
  }

  String name() {
    return name;
  }

  URI base() {
    return URI.create("http://127.0.0.1:" + port);
  }

  synchronized void start() {
    metrics.newLife(name);
    process = java.start(name, jvmOptions, args, env, false);
  }

  boolean alive() {
    Process p = process;
    return p != null && p.isAlive();
  }

  /** Scrapes the node's counters, then SIGKILL: no shutdown hook, no lease released. */
  synchronized void kill9() {
    metrics.scrape(name, base());
    Process p = process;
    if (p != null) {
      p.destroyForcibly();
      waitFor(p, 10);
    }
  }

  /** SIGTERM: the node drains and releases its leases. */
  synchronized void stop() {
    metrics.scrape(name, base());
    Process p = process;
    if (p != null) {
      p.destroy();
      if (!waitFor(p, 30)) {
        p.destroyForcibly();
        waitFor(p, 10);
      }
    }
  }

  /** Waits until the node answers ready, or the process died, or the time is up. */
  boolean awaitReady(Duration within) throws InterruptedException {
    Instant end = Instant.now().plus(within);
    while (Instant.now().isBefore(end)) {
      if (!alive()) {
        return false;
      }
      if (ready()) {
        return true;
      }
      Thread.sleep(250);
    }
    return false;
  }

  boolean ready() {
    try {
      HttpResponse<Void> r =
          http.send(
              HttpRequest.newBuilder(base().resolve("/actuator/health/readiness"))
                  .timeout(Duration.ofSeconds(2))
                  .build(),
              HttpResponse.BodyHandlers.discarding());
      return r.statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static boolean waitFor(Process p, int seconds) {
    try {
      return p.waitFor(seconds, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
