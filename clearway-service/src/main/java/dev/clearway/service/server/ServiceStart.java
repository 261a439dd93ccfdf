package dev.clearway.service.server;

import dev.clearway.service.api.ApiKeys;
import dev.clearway.service.api.InvalidKeyConfiguration;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Starts the service ({@link ClearwayServer}) on the parts its caller chose: at least a {@code
 * dataSource}, a {@code walletGateway} (or the channel configuration, which provides one) and a
 * {@code businessGateway} bean. The service itself never picks a wallet or a business.
 *
 * @param properties Spring properties of this service
 * @param beans singletons by bean name, registered before the configuration runs
 * @param configurations further configuration classes (e.g. the channel configuration)
 */
public record ServiceStart(
    Map<String, Object> properties, Map<String, Object> beans, List<Class<?>> configurations) {

  public ServiceStart {
    properties = Map.copyOf(properties);
    beans = new LinkedHashMap<>(beans);
    configurations = List.copyOf(configurations);
  }

  /** The service with these properties and beans, nothing else. */
  public static ServiceStart of(Map<String, Object> properties, Map<String, Object> beans) {
    return new ServiceStart(properties, beans, List.of());
  }

  /** The same start with one more configuration class. */
  public ServiceStart with(Class<?> configuration) {
    List<Class<?>> more = new ArrayList<>(configurations);
    more.add(configuration);
    return new ServiceStart(properties, beans, more);
  }

  /**
   * Runs the service and prints its generated demo keys (only on a terminal).
   *
   * @throws InvalidKeyConfiguration when a key variable is refused, however deep Spring wrapped it
   */
  public ConfigurableApplicationContext run(PrintStream out) {
    List<Class<?>> sources = new ArrayList<>();
    sources.add(ClearwayServer.class);
    sources.addAll(configurations);
    ConfigurableApplicationContext context;
    try {
      context =
          new SpringApplicationBuilder(sources.toArray(Class<?>[]::new))
              .web(WebApplicationType.SERVLET)
              .properties(properties)
              .initializers(ctx -> beans.forEach(ctx.getBeanFactory()::registerSingleton))
              // The caller closes the context, on shutdown too, before what the service uses
              // (its database, channels, simulators): a hook of Spring's own would close it
              // concurrently with them.
              .registerShutdownHook(false)
              .run();
    } catch (RuntimeException e) {
      throw refusedKeysOr(e);
    }
    GeneratedKeysNotice.print(
        context.getBean(ApiKeys.class), out, GeneratedKeysNotice.isTerminal(out));
    return context;
  }

  /**
   * A refused key configuration, however deep Spring wrapped it (its message is the answer), else
   * the failure itself.
   */
  private static RuntimeException refusedKeysOr(RuntimeException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof InvalidKeyConfiguration refused) {
        return refused;
      }
    }
    return e;
  }
}
