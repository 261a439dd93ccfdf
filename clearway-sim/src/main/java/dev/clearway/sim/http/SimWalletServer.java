package dev.clearway.sim.http;

import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimWallet;
import dev.clearway.sim.web.SimHttpServer;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Serves a {@link SimWallet} over real HTTP on the loopback interface (protocol: {@link
 * WireProtocol}), so that the engine meets real timeouts, dropped connections and 5xx pages instead
 * of their in-process stand-ins. Optionally posts signed callbacks ({@link Callbacks}).
 *
 * <pre>
 * try (SimWalletServer server = SimWalletServer.start(wallet, plan, Options.defaults())) {
 *   URI base = server.baseUrl(); // http://127.0.0.1:&lt;port&gt;
 * }
 * </pre>
 */
public final class SimWalletServer implements AutoCloseable {

  /**
   * @param port 0 for an ephemeral port
   * @param lostResponseHold how long a lost response keeps the client waiting before the connection
   *     is dropped without an answer
   * @param workerThreads request handler threads (a lost response holds one for {@code
   *     lostResponseHold})
   * @param callbacks null for no callbacks
   * @param statementCurrency the currency of the daily statement's lines (the wallet keeps one)
   */
  public record Options(
      int port,
      Duration lostResponseHold,
      int workerThreads,
      Callbacks callbacks,
      String statementCurrency) {
    public Options {
      Objects.requireNonNull(statementCurrency, "statementCurrency");
      if (port < 0 || port > 65_535) {
        throw new IllegalArgumentException("port out of range");
      }
      Objects.requireNonNull(lostResponseHold, "lostResponseHold");
      if (lostResponseHold.isNegative()) {
        throw new IllegalArgumentException("lostResponseHold must not be negative");
      }
      if (workerThreads < 1) {
        throw new IllegalArgumentException("workerThreads must be at least 1");
      }
    }

    public static Options defaults() {
      return new Options(0, Duration.ofMillis(1_500), 32, null, "CNY");
    }

    public Options withPort(int port) {
      return new Options(port, lostResponseHold, workerThreads, callbacks, statementCurrency);
    }

    public Options withLostResponseHold(Duration hold) {
      return new Options(port, hold, workerThreads, callbacks, statementCurrency);
    }

    public Options withWorkerThreads(int threads) {
      return new Options(port, lostResponseHold, threads, callbacks, statementCurrency);
    }

    public Options withCallbacks(Callbacks callbacks) {
      return new Options(port, lostResponseHold, workerThreads, callbacks, statementCurrency);
    }

    public Options withStatementCurrency(String currency) {
      return new Options(port, lostResponseHold, workerThreads, callbacks, currency);
    }
  }

  /**
   * Where and how events are posted. Each delivery goes to one target; the deliveries take the
   * targets in turn, and after a transport error or a 5xx the next attempt goes to the next target.
   *
   * @param urls the targets, at least one (e.g. every node of a cluster)
   * @param maxAttempts attempts per delivery, the first included, before it is abandoned
   * @param firstBackoff wait before the second attempt; doubles with each further attempt
   * @param settleInterval how often the wallet's background completes PROCESSING orders and looks
   *     for newly executed charges and refunds
   * @param requestTimeout connect and response timeout of one attempt
   * @param clock the clock of the signature timestamps (the receiver checks them against its own)
   */
  public record Callbacks(
      List<URI> urls,
      String secret,
      int maxAttempts,
      Duration firstBackoff,
      Duration settleInterval,
      Duration requestTimeout,
      Clock clock) {
    public Callbacks {
      urls = List.copyOf(urls);
      if (urls.isEmpty()) {
        throw new IllegalArgumentException("at least one callback URL is needed");
      }
      if (secret == null || secret.isEmpty()) {
        throw new IllegalArgumentException("the callback secret must not be empty");
      }
      if (maxAttempts < 1) {
        throw new IllegalArgumentException("maxAttempts must be at least 1");
      }
      Objects.requireNonNull(firstBackoff, "firstBackoff");
      Objects.requireNonNull(settleInterval, "settleInterval");
      Objects.requireNonNull(requestTimeout, "requestTimeout");
      Objects.requireNonNull(clock, "clock");
    }

    /**
     * Five attempts, 100 ms first backoff, 50 ms settle interval, 2 s per attempt, system clock.
     */
    public static Callbacks to(URI url, String secret) {
      return toAny(List.of(Objects.requireNonNull(url, "url")), secret);
    }

    /**
     * Like {@link #to}, to whichever of {@code urls} accepts: deliveries take the targets in turn,
     * and a target that is down or answers 5xx passes the next attempt to the next one.
     */
    public static Callbacks toAny(List<URI> urls, String secret) {
      return new Callbacks(
          urls,
          secret,
          5,
          Duration.ofMillis(100),
          Duration.ofMillis(50),
          Duration.ofSeconds(2),
          Clock.systemUTC());
    }

    public Callbacks withMaxAttempts(int attempts) {
      return new Callbacks(
          urls, secret, attempts, firstBackoff, settleInterval, requestTimeout, clock);
    }

    public Callbacks withFirstBackoff(Duration backoff) {
      return new Callbacks(
          urls, secret, maxAttempts, backoff, settleInterval, requestTimeout, clock);
    }

    /** The first target. */
    public URI url() {
      return urls.get(0);
    }

    /** Never prints the secret. */
    @Override
    public String toString() {
      return "Callbacks[urls=" + urls + ", secret=***, maxAttempts=" + maxAttempts + "]";
    }
  }

  /**
   * @param events distinct events (one per final state of an order)
   * @param deliveries scheduled deliveries, duplicates included
   * @param attempts HTTP attempts, retries included
   * @param delivered deliveries answered 2xx
   * @param abandoned deliveries given up after the last attempt
   */
  public record CallbackStats(
      long events, long deliveries, long attempts, long delivered, long abandoned) {}

  private final SimHttpServer server;
  private final CallbackSender callbacks;
  private final LedgerWatcher watcher;
  private final WalletCallMeter meter;
  private final WalletOutage outage;

  private SimWalletServer(
      SimHttpServer server,
      CallbackSender callbacks,
      LedgerWatcher watcher,
      WalletCallMeter meter,
      WalletOutage outage) {
    this.server = server;
    this.callbacks = callbacks;
    this.watcher = watcher;
    this.meter = meter;
    this.outage = outage;
  }

  /**
   * Binds and starts serving.
   *
   * @param faults the wallet's fault plan; callback faults are drawn from it
   * @throws UncheckedIOException if the port cannot be bound
   */
  public static SimWalletServer start(SimWallet wallet, FaultPlan faults, Options options) {
    Objects.requireNonNull(wallet, "wallet");
    Objects.requireNonNull(faults, "faults");
    CallbackSender callbacks =
        options.callbacks() == null ? null : new CallbackSender(options.callbacks(), faults);
    LedgerWatcher watcher =
        callbacks == null
            ? null
            : new LedgerWatcher(wallet, callbacks, options.callbacks().settleInterval());
    WalletCallMeter meter = new WalletCallMeter(Clock.systemUTC());
    WalletOutage outage = new WalletOutage(Clock.systemUTC());
    SimHttpServer server =
        SimHttpServer.start(
            options.port(),
            options.workerThreads(),
            "sim-wallet-http",
            new WalletRouter(
                wallet,
                options.lostResponseHold(),
                callbacks,
                meter,
                outage,
                options.statementCurrency()));
    return new SimWalletServer(server, callbacks, watcher, meter, outage);
  }

  public int port() {
    return server.port();
  }

  /** {@code http://127.0.0.1:<port>}, without a trailing slash. */
  public URI baseUrl() {
    return server.baseUrl();
  }

  /** The API requests received per second (charge, query, close, refund, refund query). */
  public WalletCallMeter calls() {
    return meter;
  }

  /** The wallet's planned outage: start one to have every API request answered 503. */
  public WalletOutage outage() {
    return outage;
  }

  /** Zeros when no callbacks are configured. */
  public CallbackStats callbackStats() {
    return callbacks == null ? new CallbackStats(0, 0, 0, 0, 0) : callbacks.stats();
  }

  /** Stops listening at once, drops open connections, held responses and pending callbacks. */
  @Override
  public void close() {
    server.close();
    if (watcher != null) {
      watcher.close();
    }
    if (callbacks != null) {
      callbacks.close();
    }
  }
}
