package dev.clearway.service.policy;

import dev.clearway.core.channel.policy.RecordedHistory;
import dev.clearway.store.channel.JdbcPolicyVersions;
import dev.clearway.store.channel.JdbcRecordedAttempts;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * Recovery policy operations under {@code /ops/policies}: the controller, the recorded history its
 * dry runs replay and the version list. The {@code PolicyRegistry} itself comes from {@code serve
 * --channels}; without it every endpoint answers 404 {@code channels_disabled}.
 */
@Configuration(proxyBeanMethods = false)
@Import(PolicyController.class)
public class PolicyApiConfiguration {

  /** The recorded history dry runs replay (an application may declare its own). */
  @Bean
  @ConditionalOnMissingBean(RecordedHistory.class)
  RecordedHistory recordedAttempts(DataSource dataSource) {
    return new JdbcRecordedAttempts(dataSource);
  }

  @Bean
  JdbcPolicyVersions policyVersions(DataSource dataSource) {
    return new JdbcPolicyVersions(dataSource);
  }
}
