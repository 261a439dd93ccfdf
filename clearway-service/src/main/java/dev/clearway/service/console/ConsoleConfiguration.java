package dev.clearway.service.console;

import dev.clearway.store.JdbcOpsQueries;
import javax.sql.DataSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** The ops console: a static page at /console and its JSON endpoints under /ops/console. */
@Configuration(proxyBeanMethods = false)
@Import({ConsoleController.class, ChannelConsoleController.class})
public class ConsoleConfiguration {

  @Bean
  JdbcOpsQueries opsQueries(DataSource dataSource) {
    return new JdbcOpsQueries(dataSource);
  }

  @Bean
  WebMvcConfigurer consolePage() {
    return new WebMvcConfigurer() {
      @Override
      public void addViewControllers(ViewControllerRegistry registry) {
        registry.addRedirectViewController("/console", "/console/index.html");
        registry.addRedirectViewController("/console/", "/console/index.html");
      }
    };
  }
}
