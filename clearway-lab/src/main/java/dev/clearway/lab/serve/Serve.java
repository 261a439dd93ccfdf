package dev.clearway.lab.serve;

import dev.clearway.boot.ClearwayChannelConfiguration;
import dev.clearway.business.http.HttpBusinessConfig;
import dev.clearway.business.http.HttpBusinessGateway;
import dev.clearway.core.flow.port.BusinessGateway;
import dev.clearway.lab.channel.SimChannels;
import dev.clearway.lab.chaos.ChaosDatabase;
import dev.clearway.service.server.ServiceStart;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimBusiness;
import dev.clearway.sim.SimWallet;
import dev.clearway.sim.business.SimBusinessServer;
import dev.clearway.sim.http.SimWalletServer;
import dev.clearway.store.Database;
import dev.clearway.wallet.http.HttpWalletConfig;
import dev.clearway.wallet.http.HttpWalletGateway;
import java.io.PrintStream;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code clearway serve [--port P] [--jdbc-url URL] [--wallet-url URL] [--business-url URL]}: the
 * service. Without configuration it runs on embedded PostgreSQL with the simulated wallet and the
 * simulated business started in-process but spoken to over real HTTP on their own ports (the wallet
 * sending signed callbacks to this service, the business through the business contract); with a
 * JDBC URL, a wallet base URL or a business base URL it uses those instead.
 */
public final class Serve {
  private Serve() {}

  /** Options of the serve command. */
  public record Options(
      int port,
      String jdbcUrl,
      String walletUrl,
      FaultPlan walletFaults,
      Map<String, String> properties,
      boolean channels,
      Business business) {
    public Options {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("--port must be within [0, 65535]");
      }
      Objects.requireNonNull(business, "business");
    }

    /** Port 8080, embedded PostgreSQL, the simulated wallet and business, no faults. */
    public static Options defaults() {
      return new Options(
          8080, null, null, FaultPlan.none(), Map.of(), false, Business.simulated(null));
    }

    public Options withPort(int port) {
      return new Options(port, jdbcUrl, walletUrl, walletFaults, properties, channels, business);
    }

    /** An existing PostgreSQL instead of the embedded one (null: embedded). */
    public Options withJdbcUrl(String url) {
      return new Options(port, url, walletUrl, walletFaults, properties, channels, business);
    }

    /** An existing wallet instead of the simulated one (null: simulated). */
    public Options withWalletUrl(String url) {
      return new Options(port, jdbcUrl, url, walletFaults, properties, channels, business);
    }

    /** The faults of the simulated wallet and business. */
    public Options withWalletFaults(FaultPlan faults) {
      return new Options(port, jdbcUrl, walletUrl, faults, properties, channels, business);
    }

    /** Further Spring properties, e.g. keys or timing, for this service only. */
    public Options withProperties(Map<String, String> extra) {
      Map<String, String> merged = new HashMap<>(properties);
      merged.putAll(extra);
      return new Options(
          port, jdbcUrl, walletUrl, walletFaults, Map.copyOf(merged), channels, business);
    }

    /** Pay through the channel layer (two simulated Stripe-style PSP accounts). */
    public Options withChannels() {
      return new Options(port, jdbcUrl, walletUrl, walletFaults, properties, true, business);
    }

    /** Where the business system is: the simulated one by default. */
    public Options withBusiness(Business business) {
      return new Options(port, jdbcUrl, walletUrl, walletFaults, properties, channels, business);
    }
  }

  /**
   * The business system the service grants goals through, always over the business contract.
   *
   * @param url null: the simulated business, started on a free port
   * @param secret the shared HMAC secret; for the simulated business null means generated
   */
  public record Business(String url, String secret) {
    public Business {
      if (url != null && (secret == null || secret.isBlank())) {
        throw new IllegalArgumentException(
            "--business-url needs --business-secret or CLEARWAY_BUSINESS_SECRET");
      }
      if (url != null) {
        URI parsed = URI.create(url);
        if (!"http".equals(parsed.getScheme()) && !"https".equals(parsed.getScheme())
            || parsed.getHost() == null) {
          throw new IllegalArgumentException("--business-url must be an http(s) URL with a host");
        }
      }
    }

    /** The simulated business; {@code secret} null or blank: a fresh one for the run. */
    public static Business simulated(String secret) {
      return new Business(null, secret == null || secret.isBlank() ? null : secret);
    }

    /** An existing business system implementing the contract at {@code url}. */
    public static Business at(String url, String secret) {
      return new Business(Objects.requireNonNull(url, "url"), secret);
    }

    /** Never prints the secret. */
    @Override
    public String toString() {
      return "Business[url=" + (url == null ? "simulated" : url) + ", secret=***]";
    }
  }

  /** A running service and what it owns. */
  public record Running(
      ConfigurableApplicationContext context,
      Database database,
      SimWalletServer simWallet,
      SimWallet wallet,
      SimBusiness business,
      SimBusinessServer simBusiness,
      AutoCloseable channels)
      implements AutoCloseable {
    public int port() {
      return Integer.parseInt(context.getEnvironment().getProperty("local.server.port", "0"));
    }

    @Override
    public void close() {
      context.close();
      if (channels != null) {
        try {
          channels.close();
        } catch (Exception e) {
          throw new IllegalStateException("closing the channel layer", e);
        }
      }
      if (simWallet != null) {
        simWallet.close();
      }
      if (simBusiness != null) {
        simBusiness.close();
      }
      database.close();
    }
  }

  public static Running start(Options options, PrintStream out) {
    int port = options.port() == 0 ? FreePorts.next() : options.port();
    // A sharded URL's physical databases and schema are installed first, as the chaos run does.
    // On Ctrl-C the service stops first (in-flight requests, workers), then the database.
    Database db =
        ChaosDatabase.open(options.jdbcUrl(), 24).closedByOwnerOnShutdown(Duration.ofSeconds(90));
    Clock clock = Clock.systemUTC();
    String secret = callbackSecret();
    SimWallet wallet = new SimWallet(options.walletFaults(), clock);
    SimBusiness business =
        options.business().url() == null ? new SimBusiness(options.walletFaults(), clock) : null;
    SimBusinessServer simBusiness = null;
    SimWalletServer simServer = null;
    SimChannels channels = null;
    WechatKeyEventsRelay keyEvents = new WechatKeyEventsRelay();
    try {
      Map<String, Object> beans = new LinkedHashMap<>();
      beans.put("dataSource", db.dataSource());
      beans.put("clock", clock);
      if (business != null) {
        simBusiness = simBusiness(business, options);
      }
      URI businessUrl =
          simBusiness != null ? simBusiness.baseUrl() : URI.create(options.business().url());
      beans.put("businessGateway", businessGateway(businessUrl, options, simBusiness));
      String walletText;
      if (options.channels()) {
        channels = ServeChannels.start(db, port, keyEvents);
        beans.putAll(ServeChannels.beans(channels));
        walletText = "channel layer, 3 simulated PSP accounts";
      } else {
        URI walletUrl;
        if (options.walletUrl() == null) {
          simServer = simWallet(wallet, options, port, secret);
          walletUrl = simServer.baseUrl();
        } else {
          walletUrl = URI.create(options.walletUrl());
        }
        beans.put("walletGateway", new HttpWalletGateway(HttpWalletConfig.of(walletUrl)));
        walletText = walletUrl.toString();
      }
      ServiceStart service = ServiceStart.of(properties(options, port, secret), beans);
      if (options.channels()) {
        service = service.with(ClearwayChannelConfiguration.class);
      }
      ConfigurableApplicationContext context = service.run(out);
      ServeChannels.bindMetrics(channels, keyEvents, context);
      Running running =
          new Running(context, db, simServer, wallet, business, simBusiness, channels);
      out.printf(
          "Clearway is serving on http://localhost:%d (API docs: /v3/api-docs; wallet: %s;"
              + " business: %s)%n",
          running.port(), walletText, businessUrl);
      return running;
    } catch (RuntimeException e) {
      closeQuietly(channels);
      closeQuietly(simServer);
      closeQuietly(simBusiness);
      closeQuietly(db);
      throw e;
    }
  }

  private static SimWalletServer simWallet(
      SimWallet wallet, Options options, int port, String secret) {
    return SimWalletServer.start(
        wallet,
        options.walletFaults(),
        SimWalletServer.Options.defaults()
            .withCallbacks(
                SimWalletServer.Callbacks.to(
                    URI.create("http://127.0.0.1:" + port + "/v1/callbacks/sim"), secret)));
  }

  /** The simulated business on a free port, signing with the given or a fresh secret. */
  private static SimBusinessServer simBusiness(SimBusiness business, Options options) {
    String secret = options.business().secret();
    return SimBusinessServer.start(
        business,
        options.walletFaults(),
        SimBusinessServer.Options.signedWith(secret == null ? generatedSecret("bizsec_") : secret));
  }

  /** The business always through the contract, over HTTP, whether simulated or not. */
  private static BusinessGateway businessGateway(
      URI url, Options options, SimBusinessServer simBusiness) {
    String secret = simBusiness != null ? simBusiness.secret() : options.business().secret();
    return HttpBusinessGateway.of(HttpBusinessConfig.of(url, secret));
  }

  private static Map<String, Object> properties(Options options, int port, String secret) {
    Map<String, Object> properties = new HashMap<>();
    properties.put("server.port", String.valueOf(port));
    properties.put("clearway.migrate", "false");
    properties.put("clearway.callbacks.sim-secret", secret);
    properties.put("spring.main.banner-mode", "off");
    properties.putAll(options.properties());
    return properties;
  }

  /** The simulated wallet's webhook secret: CLEARWAY_SIM_WEBHOOK_SECRET, else a fresh one. */
  private static String callbackSecret() {
    String configured = System.getenv("CLEARWAY_SIM_WEBHOOK_SECRET");
    if (configured != null && !configured.isBlank()) {
      return configured;
    }
    return generatedSecret("whsec_");
  }

  private static String generatedSecret(String prefix) {
    byte[] raw = new byte[24];
    new SecureRandom().nextBytes(raw);
    return prefix + HexFormat.of().formatHex(raw);
  }

  private static void closeQuietly(AutoCloseable resource) {
    if (resource == null) {
      return;
    }
    try {
      resource.close();
    } catch (Exception e) {
      // Already failing to start: the start's own error is the one to report.
    }
  }

  public static int run(Options options, PrintStream out) throws InterruptedException {
    Running running = start(options, out);
    Runtime.getRuntime().addShutdownHook(new Thread(running::close, "clearway-shutdown"));
    Thread.currentThread().join();
    return 0;
  }
}
