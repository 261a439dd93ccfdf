package dev.clearway.lab.bench;

import dev.clearway.lab.serve.FreePorts;
import dev.clearway.lab.serve.Serve;
import dev.clearway.store.Database;
import java.io.PrintStream;
import java.net.URI;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;

/**
 * The service as {@code serve} starts it (embedded PostgreSQL unless given one, the simulated
 * wallet and business over HTTP with signed callbacks) on a free port, with a merchant key made for
 * the run, for the API benchmarks.
 */
final class ApiService implements AutoCloseable {
  private static final String MERCHANT = "bench-shop";

  private final Serve.Running running;
  private final String merchantKey;
  private final SimJvm sims;
  private boolean serviceStopped;

  private ApiService(Serve.Running running, String merchantKey, SimJvm sims) {
    this.running = running;
    this.merchantKey = merchantKey;
    this.sims = sims;
  }

  /** Starts the service; its own start-up lines go to {@code progress}. */
  static ApiService start(String jdbcUrl, PrintStream progress) {
    String key = secret("cw_bench_");
    return new ApiService(Serve.start(options(jdbcUrl, key), progress), key, null);
  }

  /**
   * Starts the simulated wallet and business in a JVM of their own ({@link SimJvm}), then the
   * service on them, so that this JVM holds the service alone.
   */
  static ApiService startWithOwnSimulators(String jdbcUrl, PrintStream progress) {
    String key = secret("cw_bench_");
    String webhookSecret = secret("whsec_");
    String businessSecret = secret("bizsec_");
    int port = FreePorts.next();
    SimJvm sims =
        SimJvm.start(
            URI.create("http://127.0.0.1:" + port + "/v1/callbacks/sim"),
            webhookSecret,
            businessSecret);
    try {
      Serve.Options options =
          options(jdbcUrl, key)
              .withPort(port)
              .withWalletUrl(sims.wallet().toString())
              .withBusiness(Serve.Business.at(sims.business().toString(), businessSecret))
              .withProperties(Map.of("clearway.callbacks.sim-secret", webhookSecret));
      return new ApiService(Serve.start(options, progress), key, sims);
    } catch (RuntimeException e) {
      sims.close();
      throw e;
    }
  }

  private static Serve.Options options(String jdbcUrl, String merchantKey) {
    return Serve.Options.defaults()
        .withPort(0)
        .withJdbcUrl(jdbcUrl)
        .withProperties(
            Map.of(
                "clearway.keys.merchant",
                MERCHANT + "=" + merchantKey,
                "logging.level.root",
                "WARN"));
  }

  private static String secret(String prefix) {
    byte[] raw = new byte[24];
    new SecureRandom().nextBytes(raw);
    return prefix + HexFormat.of().formatHex(raw);
  }

  /** The running service and what {@code serve} started beside it in this JVM. */
  Serve.Running running() {
    return running;
  }

  /** The simulators' own JVM, or null when they run in this one. */
  SimJvm simulators() {
    return sims;
  }

  URI base() {
    return URI.create("http://127.0.0.1:" + running.port());
  }

  String merchantKey() {
    return merchantKey;
  }

  Database database() {
    return running.database();
  }

  /** Stops the service and its simulators and keeps the database open for the in-process bench. */
  void stopService() {
    if (serviceStopped) {
      return;
    }
    serviceStopped = true;
    running.context().close();
    if (running.simWallet() != null) {
      running.simWallet().close();
    }
    if (running.simBusiness() != null) {
      running.simBusiness().close();
    }
    if (sims != null) {
      sims.close();
    }
  }

  @Override
  public void close() {
    stopService();
    running.database().close();
  }
}
