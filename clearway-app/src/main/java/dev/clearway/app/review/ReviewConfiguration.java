package dev.clearway.app.review;

import dev.clearway.store.JdbcReviewStore;
import javax.sql.DataSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** Manual review: its store and controller. */
@Configuration(proxyBeanMethods = false)
@Import(ReviewController.class)
public class ReviewConfiguration {

  @Bean
  JdbcReviewStore reviewStore(DataSource dataSource) {
    return new JdbcReviewStore(dataSource);
  }
}
