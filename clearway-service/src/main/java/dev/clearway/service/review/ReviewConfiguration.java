package dev.clearway.service.review;

import dev.clearway.store.JdbcOpsCommandStore;
import dev.clearway.store.JdbcReviewQueries;
import dev.clearway.store.JdbcReviewStore;
import javax.sql.DataSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * Manual review: its stores (flow commands; commands on refund orders, attempts and compensations),
 * its read queries and their controllers.
 */
@Configuration(proxyBeanMethods = false)
@Import({ReviewController.class, ReviewListsController.class, OpsCommandController.class})
public class ReviewConfiguration {

  @Bean
  JdbcReviewStore reviewStore(DataSource dataSource) {
    return new JdbcReviewStore(dataSource);
  }

  @Bean
  JdbcOpsCommandStore opsCommandStore(DataSource dataSource) {
    return new JdbcOpsCommandStore(dataSource);
  }

  @Bean
  JdbcReviewQueries reviewQueries(DataSource dataSource) {
    return new JdbcReviewQueries(dataSource);
  }
}
