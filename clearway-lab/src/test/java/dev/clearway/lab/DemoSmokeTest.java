package dev.clearway.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code clearway demo --exit-after}: the service starts, payments flow over HTTP, all settle. */
class DemoSmokeTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @Test
  void aBoundedDemoDrivesPaymentsThroughTheServiceAndEveryInvariantHolds() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    int exit =
        ClearwayMain.run(
            new String[] {"demo", "--exit-after", "6", "--port", "0", "--rate", "15"},
            out,
            System.err);

    String text = bytes.toString(StandardCharsets.UTF_8);
    assertThat(exit).as(text).isZero();
    assertThat(text).contains("/console").contains("PASS");
    // The output is not a terminal: the generated console keys exist but are not printed.
    assertThat(text).contains("not shown").doesNotContain("cw_operator_");
    List<String> objects = text.lines().filter(l -> l.startsWith("{")).toList();
    JsonNode verdict = JSON.readTree(objects.get(objects.size() - 1));
    assertThat(verdict.get("converged").intValue()).isPositive();
    assertThat(verdict.get("payments").intValue()).isEqualTo(verdict.get("converged").intValue());
    assertThat(verdict.get("violations").get("doubleCharge").intValue()).isZero();
    assertThat(verdict.get("violations").get("missedRefund").intValue()).isZero();
  }

  @Test
  void aPaymentBodyIsTheApisJsonWithAnIntegralAmount() {
    JsonNode body = JSON.readTree(Demo.paymentJson(7, "demo:42:7"));

    List<String> names = new java.util.ArrayList<>();
    body.propertyNames().forEach(names::add);
    assertThat(names)
        .containsExactly("userId", "scene", "bizKey", "amount", "currency", "bizDeadline");
    assertThat(body.get("userId").intValue()).isEqualTo(8);
    assertThat(body.get("bizKey").stringValue()).isEqualTo("demo:42:7");
    assertThat(body.get("amount").isIntegralNumber()).isTrue();
    assertThat(body.get("amount").longValue()).isEqualTo(107);
    assertThat(Instant.parse(body.get("bizDeadline").stringValue())).isAfter(Instant.now());
  }
}
