package dev.clearway.lab.channel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The channel chaos report's JSON line, read back by Jackson. */
class ChannelChaosReportTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @Test
  void scenarioPaymentsSeedViolationsThenTheCountsInOrderThenSeconds() {
    Map<String, Long> counts = new LinkedHashMap<>();
    counts.put("failovers", 3L);
    counts.put("attempts_SUCCEEDED_INITIAL", 40L);
    ChannelChaosReport report =
        new ChannelChaosReport(
            50,
            7,
            List.of(new ChannelInvariants.Violation("attempt_not_final", "T_1#2")),
            counts,
            Map.of(),
            12.345);

    String json = report.toJson();

    assertThat(json)
        .isEqualTo(
            "{\"scenario\":\"channels\",\"payments\":50,\"seed\":7,\"violations\":1,"
                + "\"failovers\":3,\"attempts_SUCCEEDED_INITIAL\":40,\"seconds\":12.3}");
    JsonNode node = JSON.readTree(json);
    List<String> names = new ArrayList<>();
    node.propertyNames().forEach(names::add);
    assertThat(names)
        .containsExactly(
            "scenario",
            "payments",
            "seed",
            "violations",
            "failovers",
            "attempts_SUCCEEDED_INITIAL",
            "seconds");
    assertThat(node.get("scenario").stringValue()).isEqualTo("channels");
    assertThat(node.get("violations").intValue()).isEqualTo(1);
    assertThat(node.get("failovers").longValue()).isEqualTo(3);
    assertThat(node.get("seconds").doubleValue()).isEqualTo(12.3);
    assertThat(report.passed()).isFalse();
  }
}
