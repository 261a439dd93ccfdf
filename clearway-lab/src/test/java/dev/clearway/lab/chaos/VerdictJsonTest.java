package dev.clearway.lab.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The verdict's JSON line: its fields, their order and values, read back by Jackson. */
class VerdictJsonTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @Test
  void theVerdictIsOneObjectWithItsDocumentedFieldsInOrder() {
    Map<String, Integer> byStatus = new TreeMap<>(Map.of("BIZ_SUCCESS", 7, "PAY_FAIL", 2));
    Map<String, Integer> violations = Verdict.emptyViolations();
    violations.put("missedRefund", 1);
    Verdict v = new Verdict(10, 9, byStatus, 1, violations, 1234);

    String json = v.toJson();

    assertThat(json)
        .isEqualTo(
            "{\"payments\":10,\"converged\":9,\"byStatus\":{\"BIZ_SUCCESS\":7,\"PAY_FAIL\":2},"
                + "\"manualReview\":1,\"violations\":{\"doubleCharge\":0,\"doubleGrant\":0,"
                + "\"doubleRefund\":0,\"falseTerminal\":0,\"illegalTransition\":0,"
                + "\"missedRefund\":1,\"notConverged\":0,\"refundAfterBizSuccess\":0},"
                + "\"wallClockMs\":1234}");
    JsonNode node = JSON.readTree(json);
    assertThat(names(node))
        .containsExactly(
            "payments", "converged", "byStatus", "manualReview", "violations", "wallClockMs");
    assertThat(node.get("payments").intValue()).isEqualTo(10);
    assertThat(node.get("converged").intValue()).isEqualTo(9);
    assertThat(node.get("byStatus").get("BIZ_SUCCESS").intValue()).isEqualTo(7);
    assertThat(node.get("manualReview").intValue()).isEqualTo(1);
    assertThat(names(node.get("violations"))).containsExactlyElementsOf(violations.keySet());
    assertThat(node.get("violations").get("missedRefund").intValue()).isEqualTo(1);
    assertThat(node.get("wallClockMs").longValue()).isEqualTo(1234);
  }

  static List<String> names(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.propertyNames().forEach(names::add);
    return names;
  }
}
