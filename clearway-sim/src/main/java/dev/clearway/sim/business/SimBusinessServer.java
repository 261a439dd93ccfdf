package dev.clearway.sim.business;

import com.sun.net.httpserver.HttpServer;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimBusiness;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Serves a {@link SimBusiness} over real HTTP on the loopback interface as the business contract
 * (docs/business-contract.md) defines it: signed requests and answers, idempotent fulfilments, the
 * goal's fact, and the business's faults told as the network symptoms they stand for. Its ledger is
 * readable at {@code GET /sim/ledger}.
 *
 * <pre>
 * try (SimBusinessServer server = SimBusinessServer.start(business, plan, Options.signedWith(s))) {
 *   URI base = server.baseUrl(); // http://127.0.0.1:&lt;port&gt;
 * }
 * </pre>
 */
public final class SimBusinessServer implements AutoCloseable {

  /**
   * @param port 0 for an ephemeral port
   * @param secret the HMAC-SHA256 key shared with the engine
   * @param lostResponseHold how long a lost answer keeps the client waiting before the connection
   *     is dropped
   * @param slowHold how long a slow answer waits at most (a forced {@link BusinessHttpFault#SLOW}
   *     waits exactly this long)
   * @param workerThreads request handler threads
   * @param clock the clock of signature timestamps, both ways
   */
  public record Options(
      int port,
      String secret,
      Duration lostResponseHold,
      Duration slowHold,
      int workerThreads,
      Clock clock) {
    public Options {
      if (port < 0 || port > 65_535) {
        throw new IllegalArgumentException("port out of range");
      }
      if (secret == null || secret.isBlank()) {
        throw new IllegalArgumentException("the business secret must not be empty");
      }
      Objects.requireNonNull(lostResponseHold, "lostResponseHold");
      Objects.requireNonNull(slowHold, "slowHold");
      if (lostResponseHold.isNegative() || slowHold.isNegative()) {
        throw new IllegalArgumentException("holds must not be negative");
      }
      if (workerThreads < 1) {
        throw new IllegalArgumentException("workerThreads must be at least 1");
      }
      Objects.requireNonNull(clock, "clock");
    }

    /** Ephemeral port, 1.5 s lost-answer hold, slow answers up to 3 s, 32 threads, system clock. */
    public static Options signedWith(String secret) {
      return new Options(
          0, secret, Duration.ofMillis(1_500), Duration.ofSeconds(3), 32, Clock.systemUTC());
    }

    public Options withPort(int port) {
      return new Options(port, secret, lostResponseHold, slowHold, workerThreads, clock);
    }

    public Options withLostResponseHold(Duration hold) {
      return new Options(port, secret, hold, slowHold, workerThreads, clock);
    }

    public Options withSlowHold(Duration hold) {
      return new Options(port, secret, lostResponseHold, hold, workerThreads, clock);
    }

    /** Never prints the secret. */
    @Override
    public String toString() {
      return "Options[port=" + port + ", secret=***, workerThreads=" + workerThreads + "]";
    }
  }

  private final HttpServer server;
  private final ExecutorService workers;
  private final AtomicReference<BusinessHttpFault> forced;
  private final String secret;

  private SimBusinessServer(
      HttpServer server,
      ExecutorService workers,
      AtomicReference<BusinessHttpFault> forced,
      String secret) {
    this.server = server;
    this.workers = workers;
    this.forced = forced;
    this.secret = secret;
  }

  /**
   * Binds and starts serving.
   *
   * @param faults the business's fault plan (the business's own faults come from the business);
   *     slow answers are drawn from it
   * @throws UncheckedIOException if the port cannot be bound
   */
  public static SimBusinessServer start(SimBusiness business, FaultPlan faults, Options options) {
    Objects.requireNonNull(business, "business");
    Objects.requireNonNull(faults, "faults");
    HttpServer server;
    try {
      server =
          HttpServer.create(
              new InetSocketAddress(InetAddress.getLoopbackAddress(), options.port()), 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot bind the simulated business to " + options.port(), e);
    }
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor workers =
        new ThreadPoolExecutor(
            options.workerThreads(),
            options.workerThreads(),
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, "sim-business-http-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    workers.allowCoreThreadTimeOut(true);
    AtomicReference<BusinessHttpFault> forced = new AtomicReference<>(BusinessHttpFault.NONE);
    server.createContext("/", new BusinessRouter(business, faults, options, forced));
    server.setExecutor(workers);
    server.start();
    return new SimBusinessServer(server, workers, forced, options.secret());
  }

  /** The secret it signs and verifies with, for the engine it is started next to. */
  public String secret() {
    return secret;
  }

  /**
   * Applies {@code fault} to every contract request from now on ({@link BusinessHttpFault#NONE}
   * ends it); for contract tests and drills.
   */
  public void force(BusinessHttpFault fault) {
    forced.set(Objects.requireNonNull(fault, "fault"));
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** {@code http://127.0.0.1:<port>}, without a trailing slash. */
  public URI baseUrl() {
    InetAddress address = server.getAddress().getAddress();
    String host = address.getHostAddress();
    if (address instanceof Inet6Address) {
      host = "[" + host + "]";
    }
    return URI.create("http://" + host + ":" + port());
  }

  /** Stops listening at once and drops open connections and held answers. */
  @Override
  public void close() {
    server.stop(0);
    workers.shutdownNow();
  }
}
