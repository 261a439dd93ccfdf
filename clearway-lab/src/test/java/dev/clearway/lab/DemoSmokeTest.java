package dev.clearway.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code clearway demo --exit-after}: the service starts, payments flow over HTTP, all settle. */
class DemoSmokeTest {

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
    assertThat(text).containsPattern("\"converged\":[1-9]");
    assertThat(text).contains("\"doubleCharge\":0").contains("\"missedRefund\":0");
  }
}
