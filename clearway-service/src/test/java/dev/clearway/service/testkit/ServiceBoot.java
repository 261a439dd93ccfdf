package dev.clearway.service.testkit;

import dev.clearway.core.flow.port.BusinessGateway;
import dev.clearway.core.flow.port.WalletGateway;
import dev.clearway.service.server.ClearwayServer;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimBusiness;
import dev.clearway.store.testing.TestDatabase;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The service started in the test JVM as the HTTP tests run it: a free port, compressed timing, the
 * tests' shared database pool, the system clock and a business that always grants, unless the test
 * gives its own; each test names only its keys, further properties and beans.
 */
public final class ServiceBoot {
  private final List<String> properties =
      new ArrayList<>(
          List.of("server.port=0", "spring.main.banner-mode=off", "clearway.timing=compressed"));
  private final Map<String, Object> beans = new LinkedHashMap<>();
  private DataSource dataSource = TestDatabase.get().dataSource();
  private Clock clock = Clock.systemUTC();
  private BusinessGateway business;

  /** Further {@code name=value} properties; a later one wins over an earlier one. */
  public ServiceBoot properties(String... nameValues) {
    properties.addAll(List.of(nameValues));
    return this;
  }

  /** The keys of the merchant, the operators and the approvers ({@code name=key,...}). */
  public ServiceBoot keys(String merchant, String operators, String approvers) {
    return properties(
        "clearway.keys.merchant=" + merchant,
        "clearway.keys.operator=" + operators,
        "clearway.keys.approver=" + approvers);
  }

  /** The pool the service uses instead of the tests' own (a wrapper of it, say). */
  public ServiceBoot dataSource(DataSource dataSource) {
    this.dataSource = dataSource;
    return this;
  }

  public ServiceBoot clock(Clock clock) {
    this.clock = clock;
    return this;
  }

  public ServiceBoot wallet(WalletGateway wallet) {
    return bean("walletGateway", wallet);
  }

  public ServiceBoot business(BusinessGateway business) {
    this.business = business;
    return this;
  }

  /** A singleton bean registered before the context starts. */
  public ServiceBoot bean(String name, Object bean) {
    beans.put(name, bean);
    return this;
  }

  public ServiceBoot beans(Map<String, Object> more) {
    beans.putAll(more);
    return this;
  }

  /** Starts the service; its port is {@link #port}. */
  public ConfigurableApplicationContext start() {
    BusinessGateway granting =
        business != null ? business : new SimBusiness(FaultPlan.none(), clock);
    return new SpringApplicationBuilder(ClearwayServer.class)
        .web(WebApplicationType.SERVLET)
        .properties(properties.toArray(String[]::new))
        .initializers(
            ctx -> {
              // Registered singletons are not destroyed with the context: the pool is the test
              // JVM's, shared with every other test class.
              var factory = ctx.getBeanFactory();
              factory.registerSingleton("dataSource", dataSource);
              factory.registerSingleton("clock", clock);
              factory.registerSingleton("businessGateway", granting);
              beans.forEach(factory::registerSingleton);
            })
        .run();
  }

  /** The port a started service listens on. */
  public static int port(ConfigurableApplicationContext context) {
    return Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
  }

  /** The base URL of a started service. */
  public static String base(ConfigurableApplicationContext context) {
    return "http://localhost:" + port(context);
  }
}
