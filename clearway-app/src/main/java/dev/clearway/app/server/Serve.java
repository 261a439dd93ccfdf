package dev.clearway.app.server;

import dev.clearway.app.api.ApiKeys;
import dev.clearway.app.api.Role;
import dev.clearway.core.port.BusinessGateway;
import dev.clearway.core.port.WalletGateway;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimBusiness;
import dev.clearway.sim.SimWallet;
import dev.clearway.store.Database;
import java.io.PrintStream;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code clearway serve [--port P] [--jdbc-url URL]}: the service on embedded PostgreSQL (or the
 * given one) with the simulated wallet and business service.
 */
public final class Serve {
  private Serve() {}

  /** Options of the serve command. */
  public record Options(int port, String jdbcUrl) {
    public static Options parse(String[] args) {
      int port = 8080;
      String url = null;
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--port" -> port = Integer.parseInt(value(args, ++i));
          case "--jdbc-url" -> url = value(args, ++i);
          default -> throw new IllegalArgumentException("unknown option " + args[i]);
        }
      }
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("--port must be within [0, 65535]");
      }
      return new Options(port, url);
    }

    private static String value(String[] args, int i) {
      if (i >= args.length) {
        throw new IllegalArgumentException(args[i - 1] + " needs a value");
      }
      return args[i];
    }
  }

  /** A running service and what it owns. */
  public record Running(ConfigurableApplicationContext context, Database database)
      implements AutoCloseable {
    public int port() {
      return Integer.parseInt(context.getEnvironment().getProperty("local.server.port", "0"));
    }

    @Override
    public void close() {
      context.close();
      database.close();
    }
  }

  public static Running start(Options options, PrintStream out) {
    Database db =
        options.jdbcUrl() == null ? Database.embedded(24) : Database.connect(options.jdbcUrl(), 24);
    Clock clock = Clock.systemUTC();
    SimWallet wallet = new SimWallet(FaultPlan.none(), clock);
    SimBusiness business = new SimBusiness(FaultPlan.none(), clock);
    ConfigurableApplicationContext context =
        new SpringApplicationBuilder(ClearwayServer.class)
            .web(WebApplicationType.SERVLET)
            .properties(
                Map.of(
                    "server.port", String.valueOf(options.port()),
                    "clearway.migrate", "false",
                    "spring.main.banner-mode", "off"))
            .initializers(
                ctx -> {
                  ctx.getBeanFactory().registerSingleton("dataSource", db.dataSource());
                  ctx.getBeanFactory().registerSingleton("clock", clock);
                  ctx.getBeanFactory().registerSingleton("walletGateway", (WalletGateway) wallet);
                  ctx.getBeanFactory()
                      .registerSingleton("businessGateway", (BusinessGateway) business);
                })
            .run();
    Running running = new Running(context, db);
    printGeneratedKeys(context.getBean(ApiKeys.class), out);
    out.printf(
        "Clearway is serving on http://localhost:%d (API docs: /v3/api-docs)%n", running.port());
    return running;
  }

  private static void printGeneratedKeys(ApiKeys keys, PrintStream out) {
    for (Map.Entry<Role, List<String>> e : keys.generatedKeys().entrySet()) {
      for (String key : e.getValue()) {
        out.printf("generated %s key (shown once): %s%n", e.getKey().name().toLowerCase(), key);
      }
    }
  }

  public static int run(String[] args, PrintStream out) throws InterruptedException {
    Running running = start(Options.parse(args), out);
    Runtime.getRuntime().addShutdownHook(new Thread(running::close, "clearway-shutdown"));
    Thread.currentThread().join();
    return 0;
  }
}
