package dev.clearway.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code clearway.*} settings are described for IDEs and tooling: the configuration processor
 * writes their metadata into the starter's jar, and the auto-configurations are registered.
 */
class ConfigurationMetadataTest {

  @Test
  void theMetadataDescribesTheClearwayProperties() throws Exception {
    JsonNode metadata;
    try (InputStream in = resource("META-INF/spring-configuration-metadata.json")) {
      metadata = JsonMapper.builder().build().readTree(in);
    }
    List<String> names = new ArrayList<>();
    metadata.get("properties").forEach(p -> names.add(p.get("name").stringValue()));

    assertThat(names)
        .contains(
            "clearway.instance-id",
            "clearway.workers",
            "clearway.timing",
            "clearway.migrate",
            "clearway.worker-queue",
            "clearway.wakeup-capacity",
            "clearway.business.url",
            "clearway.business.secret",
            "clearway.business.connect-timeout",
            "clearway.business.request-timeout",
            "clearway.broker.url",
            "clearway.broker.consumers");
    assertThat(metadata.get("groups").get(0).get("sourceType").stringValue())
        .isEqualTo(ClearwayProperties.class.getName());
  }

  @Test
  void theAutoConfigurationsAreRegistered() throws Exception {
    String imports;
    try (InputStream in =
        resource(
            "META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports")) {
      imports = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    assertThat(imports.lines())
        .containsExactly(
            ClearwayChannelAutoConfiguration.class.getName(),
            ClearwayAutoConfiguration.class.getName(),
            ClearwayBrokerAutoConfiguration.class.getName(),
            ClearwayRedisAutoConfiguration.class.getName());
  }

  private static InputStream resource(String name) {
    InputStream in = ConfigurationMetadataTest.class.getClassLoader().getResourceAsStream(name);
    assertThat(in).as(name).isNotNull();
    return in;
  }
}
