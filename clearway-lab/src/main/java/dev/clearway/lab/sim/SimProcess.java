package dev.clearway.lab.sim;

import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimBusiness;
import dev.clearway.sim.SimWallet;
import dev.clearway.sim.business.SimBusinessServer;
import dev.clearway.sim.http.SimWalletServer;
import java.net.URI;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.json.JsonMapper;

/**
 * The simulated outside world on its own: the wallet on port P, the business on P+1 and the
 * ledger/control server on P+2 (P = 0: any free ports), sharing one fault plan, so that any number
 * of engine nodes can talk to the same wallet and business, and a test or an operator can read what
 * was really charged and granted.
 */
public final class SimProcess implements AutoCloseable {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  /**
   * @param port the wallet's port; the business listens on {@code port + 1} and the ledger/control
   *     server on {@code port + 2}; 0 for three free ports
   * @param callbackUrls where the wallet posts its signed events, any of them (none: no callbacks)
   * @param webhookSecret the secret the wallet signs its callbacks with
   * @param businessSecret the business contract's HMAC secret
   * @param stripe null: no PSP simulators; otherwise two Stripe-style accounts on {@code port + 3}
   *     and {@code port + 4} with these keys
   */
  public record Options(
      int port,
      double faultRate,
      long seed,
      List<URI> callbackUrls,
      String webhookSecret,
      String businessSecret,
      StripeKeys stripe) {
    public Options {
      int highest = stripe == null ? 65_533 : 65_531;
      if (port < 0 || port > highest) {
        throw new IllegalArgumentException(
            "--port must be within [0, " + highest + "] (it uses the next ports too)");
      }
      if (!(faultRate >= 0 && faultRate <= 1)) {
        throw new IllegalArgumentException("--fault-rate must be within [0, 1]");
      }
      callbackUrls = List.copyOf(callbackUrls);
      for (URI url : callbackUrls) {
        if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme())
            || url.getHost() == null) {
          throw new IllegalArgumentException("--callback-url must be an http(s) URL with a host");
        }
      }
      requireSecret(webhookSecret, SimCommandNames.WEBHOOK_SECRET_ENV);
      requireSecret(businessSecret, SimCommandNames.BUSINESS_SECRET_ENV);
    }

    /** Without PSP simulators. */
    public Options(
        int port,
        double faultRate,
        long seed,
        List<URI> callbackUrls,
        String webhookSecret,
        String businessSecret) {
      this(port, faultRate, seed, callbackUrls, webhookSecret, businessSecret, null);
    }

    /** With the two Stripe-style PSP simulators, accepting and signing with {@code keys}. */
    public Options withStripe(StripeKeys keys) {
      return new Options(port, faultRate, seed, callbackUrls, webhookSecret, businessSecret, keys);
    }

    private static void requireSecret(String secret, String variable) {
      if (secret == null || secret.isBlank()) {
        throw new IllegalArgumentException(variable + " must be set to a non-blank secret");
      }
    }

    /** Never prints the secrets. */
    @Override
    public String toString() {
      return "Options[port="
          + port
          + ", faultRate="
          + faultRate
          + ", seed="
          + seed
          + ", callbackUrls="
          + callbackUrls
          + ", stripe="
          + (stripe != null)
          + ", secrets=***]";
    }
  }

  private final SimWallet wallet;
  private final SimBusiness business;
  private final SimWalletServer walletServer;
  private final SimBusinessServer businessServer;
  private final SimControlServer control;
  private final SimStripes stripes;

  private SimProcess(
      SimWallet wallet,
      SimBusiness business,
      SimWalletServer walletServer,
      SimBusinessServer businessServer,
      SimControlServer control,
      SimStripes stripes) {
    this.wallet = wallet;
    this.business = business;
    this.walletServer = walletServer;
    this.businessServer = businessServer;
    this.control = control;
    this.stripes = stripes;
  }

  /** Starts the three servers; on a failure closes what had started and rethrows. */
  public static SimProcess start(Options options) {
    Objects.requireNonNull(options, "options");
    Clock clock = Clock.systemUTC();
    FaultPlan faults = new FaultPlan(options.seed(), options.faultRate());
    SimWallet wallet = new SimWallet(faults, clock);
    SimBusiness business = new SimBusiness(faults, clock);
    SimWalletServer walletServer = null;
    SimBusinessServer businessServer = null;
    SimStripes stripes = null;
    try {
      SimWalletServer.Options walletOptions =
          SimWalletServer.Options.defaults().withPort(options.port());
      if (!options.callbackUrls().isEmpty()) {
        walletOptions =
            walletOptions.withCallbacks(
                SimWalletServer.Callbacks.toAny(options.callbackUrls(), options.webhookSecret()));
      }
      walletServer = SimWalletServer.start(wallet, faults, walletOptions);
      businessServer =
          SimBusinessServer.start(
              business,
              faults,
              SimBusinessServer.Options.signedWith(options.businessSecret())
                  .withPort(next(options.port(), 1)));
      if (options.stripe() != null) {
        stripes =
            SimStripes.start(
                options.stripe(),
                options.seed(),
                next(options.port(), 3),
                next(options.port(), 4),
                options.callbackUrls());
      }
      SimControlServer control =
          SimControlServer.start(next(options.port(), 2), wallet, walletServer, business);
      return new SimProcess(wallet, business, walletServer, businessServer, control, stripes);
    } catch (RuntimeException e) {
      if (stripes != null) {
        stripes.close();
      }
      if (businessServer != null) {
        businessServer.close();
      }
      if (walletServer != null) {
        walletServer.close();
      }
      throw e;
    }
  }

  private static int next(int port, int offset) {
    return port == 0 ? 0 : port + offset;
  }

  /** The base URLs by name: wallet, business, ledger, and with PSP simulators stripeA, stripeB. */
  public Map<String, URI> endpoints() {
    Map<String, URI> urls = new LinkedHashMap<>();
    urls.put("wallet", walletServer.baseUrl());
    urls.put("business", businessServer.baseUrl());
    urls.put("ledger", control.baseUrl());
    if (stripes != null) {
      urls.put("stripeA", stripes.a().baseUrl());
      urls.put("stripeB", stripes.b().baseUrl());
    }
    return urls;
  }

  /** The one line printed when ready: a JSON object of {@link #endpoints()}. */
  public String readyLine() {
    Map<String, String> line = new LinkedHashMap<>();
    endpoints().forEach((name, url) -> line.put(name, url.toString()));
    return JSON.writeValueAsString(line);
  }

  public SimWallet wallet() {
    return wallet;
  }

  public SimBusiness business() {
    return business;
  }

  public SimWalletServer walletServer() {
    return walletServer;
  }

  /** Stops every server; pending callbacks and webhooks are dropped. */
  @Override
  public void close() {
    control.close();
    if (stripes != null) {
      stripes.close();
    }
    businessServer.close();
    walletServer.close();
  }
}
