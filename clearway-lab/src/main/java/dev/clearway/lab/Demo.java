package dev.clearway.lab;

import dev.clearway.lab.chaos.FlowSnapshot;
import dev.clearway.lab.chaos.InvariantChecker;
import dev.clearway.lab.chaos.Verdict;
import dev.clearway.lab.serve.Serve;
import dev.clearway.sim.FaultPlan;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.json.JsonMapper;

/**
 * The main job: starts the service (embedded PostgreSQL, the simulated wallet over HTTP with
 * faults, signed callbacks), drives a steady stream of payments through the real HTTP API, prints
 * progress, and keeps the console open at http://localhost:PORT/console until Ctrl-C or {@code
 * --exit-after SECONDS}; then it lets open flows settle and prints flows by status and the
 * invariants, checked from the database and the simulators' ledgers.
 */
final class Demo {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private Demo() {}

  record Options(int port, long exitAfterSeconds, int perSecond, double faultRate, long seed) {
    Options {
      if (perSecond < 1 || perSecond > 500) {
        throw new IllegalArgumentException("--rate must be within [1, 500] payments per second");
      }
      if (faultRate < 0 || faultRate > 1) {
        throw new IllegalArgumentException("--fault-rate must be within [0, 1]");
      }
    }
  }

  static int run(Options o, PrintStream out, PrintStream err) throws InterruptedException {
    String merchantKey = "cw_demo_merchant_" + random();
    long started = System.currentTimeMillis();
    Serve.Running service = startService(o, merchantKey, out);
    String base = "http://localhost:" + service.port();
    printBanner(o, base, out);

    AtomicBoolean stop = new AtomicBoolean();
    CountDownLatch reported = new CountDownLatch(1);
    Thread hook = stopHook(stop, reported);
    Runtime.getRuntime().addShutdownHook(hook);

    AtomicInteger sent = new AtomicInteger();
    AtomicInteger refused = new AtomicInteger();
    Thread driver =
        new Thread(() -> drive(base, merchantKey, o, stop, sent, refused), "demo-driver");
    driver.setDaemon(true);
    driver.start();
    Instant end =
        o.exitAfterSeconds() > 0 ? Instant.now().plusSeconds(o.exitAfterSeconds()) : Instant.MAX;
    try {
      while (!stop.get() && Instant.now().isBefore(end)) {
        Thread.sleep(2_000);
        progress(service, sent.get(), refused.get(), started, out);
      }
    } catch (InterruptedException e) {
      // Ctrl-C: fall through to the report.
      Thread.interrupted();
    }
    stop.set(true);
    settle(service, out);
    int exit = report(service, sent.get(), started, out);
    service.close();
    reported.countDown();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // Ctrl-C path: the hook is running and waits for the countdown above.
    }
    return exit;
  }

  private static Serve.Running startService(Options o, String merchantKey, PrintStream out) {
    return Serve.start(
        Serve.Options.defaults()
            .withPort(o.port())
            .withWalletFaults(new FaultPlan(o.seed(), o.faultRate()))
            .withProperties(
                Map.of(
                    "clearway.keys.merchant",
                    "demo-shop=" + merchantKey,
                    // Seconds instead of minutes: retries, refunds and recoveries converge
                    // while you watch.
                    "clearway.timing",
                    "compressed")),
        out);
  }

  private static void printBanner(Options o, String base, PrintStream out) {
    out.printf(
        "%nConsole: %s/console  (paste an operator or approver key: the demo keys shown above on"
            + " a terminal, or those of CLEARWAY_OPERATOR_KEYS / CLEARWAY_APPROVER_KEYS)%n",
        base);
    out.printf(
        "Driving %d payments/s with fault rate %.2f through %s/v1/payments; %s%n%n",
        o.perSecond(),
        o.faultRate(),
        base,
        o.exitAfterSeconds() > 0
            ? "stopping after " + o.exitAfterSeconds() + " s"
            : "Ctrl-C stops");
  }

  /** On Ctrl-C: stops the stream, wakes the main thread and waits (60 s at most) for the report. */
  private static Thread stopHook(AtomicBoolean stop, CountDownLatch reported) {
    Thread main = Thread.currentThread();
    return new Thread(
        () -> {
          stop.set(true);
          main.interrupt();
          try {
            reported.await(60, java.util.concurrent.TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        },
        "clearway-demo-stop");
  }

  private static void settle(Serve.Running service, PrintStream out) throws InterruptedException {
    out.println("\nStopping the stream; letting open flows settle (at most 30 s)...");
    Instant settle = Instant.now().plusSeconds(30);
    while (FlowSnapshot.unconverged(service.database().dataSource()) > 0
        && Instant.now().isBefore(settle)) {
      Thread.sleep(500);
    }
  }

  /** Posts payments at the configured rate: unique goals, some replays of the same key. */
  private static void drive(
      String base,
      String key,
      Options o,
      AtomicBoolean stop,
      AtomicInteger sent,
      AtomicInteger refused) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    long intervalNanos = 1_000_000_000L / o.perSecond();
    long next = System.nanoTime();
    int n = 0;
    while (!stop.get()) {
      n++;
      String bizKey = "demo:" + o.seed() + ":" + n;
      String body = paymentJson(n, bizKey);
      HttpRequest request =
          HttpRequest.newBuilder(URI.create(base + "/v1/payments"))
              .timeout(Duration.ofSeconds(5))
              .header("Authorization", "Bearer " + key)
              .header("Content-Type", "application/json")
              .header("Idempotency-Key", "idem-" + bizKey)
              .POST(HttpRequest.BodyPublishers.ofString(body))
              .build();
      http.sendAsync(request, HttpResponse.BodyHandlers.discarding())
          .thenAccept(r -> (r.statusCode() < 300 ? sent : refused).incrementAndGet());
      next += intervalNanos;
      long sleep = next - System.nanoTime();
      if (sleep > 0) {
        try {
          Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
        } catch (InterruptedException e) {
          return;
        }
      }
    }
  }

  /** The body of one payment: user, scene, bizKey, amount, currency and a deadline 8 s away. */
  static String paymentJson(int n, String bizKey) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("userId", 1 + n % 500);
    body.put("scene", "renewal");
    body.put("bizKey", bizKey);
    body.put("amount", 100 + n % 9_900);
    body.put("currency", "CNY");
    body.put("bizDeadline", Instant.now().plusSeconds(8).toString());
    return JSON.writeValueAsString(body);
  }

  private static void progress(
      Serve.Running service, int sent, int refused, long started, PrintStream out) {
    Map<String, Integer> byStatus = FlowSnapshot.countByStatus(service.database().dataSource());
    StringBuilder line =
        new StringBuilder(
            String.format(
                "%6.0fs  accepted %,d  refused %,d  open %,d  review %,d |",
                (System.currentTimeMillis() - started) / 1000.0,
                sent,
                refused,
                byStatus.getOrDefault("open", 0),
                byStatus.getOrDefault("review", 0)));
    byStatus.forEach(
        (status, n) -> {
          if (!status.equals("open") && !status.equals("review")) {
            line.append(String.format(" %s %,d", status, n));
          }
        });
    out.println(line);
  }

  private static int report(Serve.Running service, int sent, long started, PrintStream out) {
    service.wallet().settleAll();
    FlowSnapshot snapshot = FlowSnapshot.read(service.database().dataSource());
    InvariantChecker checker = new InvariantChecker();
    Verdict v =
        checker.check(
            snapshot,
            service.wallet().ledger(),
            service.business().grants(),
            snapshot.flows().size(),
            System.currentTimeMillis() - started);
    out.println();
    out.println("+----------------------------+-----------+");
    out.println("| flows by status            |     count |");
    out.println("+----------------------------+-----------+");
    for (Map.Entry<String, Integer> e : v.byStatus().entrySet()) {
      out.printf("| %-26s | %,9d |%n", e.getKey(), e.getValue());
    }
    out.printf("| %-26s | %,9d |%n", "in manual review", v.manualReview());
    out.println("+----------------------------+-----------+");
    out.println("| invariant (violations)     |     count |");
    out.println("+----------------------------+-----------+");
    for (Map.Entry<String, Integer> e : v.violations().entrySet()) {
      out.printf("| %-26s | %,9d |%n", e.getKey(), e.getValue());
    }
    out.println("+----------------------------+-----------+");
    out.printf(
        "%,d payments accepted, %,d flows converged of %,d in %.1f s: %s%n",
        sent, v.converged(), v.payments(), v.wallClockMs() / 1000.0, v.passed() ? "PASS" : "FAIL");
    checker.examples().forEach(e -> out.println("violation: " + e));
    out.println(v.toJson());
    return v.passed() ? 0 : 1;
  }

  private static String random() {
    byte[] raw = new byte[12];
    new SecureRandom().nextBytes(raw);
    return HexFormat.of().formatHex(raw);
  }
}
