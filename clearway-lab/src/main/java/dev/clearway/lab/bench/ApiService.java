package dev.clearway.lab.bench;

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
  private boolean serviceStopped;

  private ApiService(Serve.Running running, String merchantKey) {
    this.running = running;
    this.merchantKey = merchantKey;
  }

  /** Starts the service; its own start-up lines go to {@code progress}. */
  static ApiService start(String jdbcUrl, PrintStream progress) {
    byte[] raw = new byte[24];
    new SecureRandom().nextBytes(raw);
    String key = "cw_bench_" + HexFormat.of().formatHex(raw);
    Serve.Options options =
        Serve.Options.defaults()
            .withPort(0)
            .withJdbcUrl(jdbcUrl)
            .withProperties(
                Map.of(
                    "clearway.keys.merchant", MERCHANT + "=" + key, "logging.level.root", "WARN"));
    return new ApiService(Serve.start(options, progress), key);
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
  }

  @Override
  public void close() {
    stopService();
    running.database().close();
  }
}
