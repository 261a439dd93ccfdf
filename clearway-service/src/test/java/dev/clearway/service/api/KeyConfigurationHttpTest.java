package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.clearway.service.api.RunningApi.Answer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Keys mean what they say, over the real service: a base64 key ending in {@code ==} is one whole
 * key (and {@code Bearer =} opens nothing); an entry that is {@code =}, a key under 16 characters
 * and an operator key that names nobody stop the start with a message naming the role and the
 * entry's position, and neither that message nor anything logged holds the key.
 */
class KeyConfigurationHttpTest {
  private static final String BASE64_MERCHANT_KEY = "bWVyY2hhbnQtYmFzZTY0LWtleQ==";

  @BeforeEach
  void reset() {
    RunningApi.resetDatabase();
  }

  @Test
  void aBase64KeyEndingInEqualsSignsOpensThePaymentApiAndBearerEqualsDoesNot() {
    try (RunningApi api = RunningApi.start("clearway.keys.merchant=" + BASE64_MERCHANT_KEY)) {
      Answer whole = api.get("/v1/payment-flows?bizKey=none").bearer(BASE64_MERCHANT_KEY).send();
      assertThat(whole.status()).as("%s", whole).isEqualTo(200);

      for (String presented : new String[] {"=", "==", "bWVyY2hhbnQtYmFzZTY0LWtleQ"}) {
        Answer refused = api.get("/v1/payment-flows?bizKey=none").bearer(presented).send();
        assertThat(refused.status()).as("Bearer %s: %s", presented, refused).isEqualTo(401);
      }
    }
  }

  @Test
  void anEqualsSignAsAKeyIsRefusedAtStart() {
    assertRefusedAtStart(
        "clearway.keys.merchant=mk_first_merchant_key_01,=", Role.MERCHANT, 2, "=", "at least 16");
  }

  @Test
  void aShortKeyIsRefusedAtStart() {
    assertRefusedAtStart(
        "clearway.keys.merchant=mk_short_9x", Role.MERCHANT, 1, "mk_short_9x", "at least 16");
    assertRefusedAtStart(
        "clearway.keys.approver=aaron=ak_short_9x", Role.APPROVER, 1, "ak_short_9x", "at least 16");
  }

  @Test
  void anUnnamedOperatorKeyIsRefusedAtStart() {
    assertRefusedAtStart(
        "clearway.keys.operator=ok_nameless_8d2e4f6a0b1c",
        Role.OPERATOR,
        1,
        "ok_nameless_8d2e4f6a0b1c",
        "must name its person");
  }

  private static void assertRefusedAtStart(
      String property, Role role, int position, String keyBody, String problem) {
    Throwable failure;
    String logged;
    try (OutputCapture output = new OutputCapture()) {
      failure = catchThrowable(() -> RunningApi.start(property).close());
      logged = output.text();
    }
    assertThat(failure).as("the service started with %s", property).isNotNull();
    InvalidKeyConfiguration refused = refusal(failure);
    assertThat(refused).as("cause of %s", failure).isNotNull();
    assertThat(refused.role()).isEqualTo(role);
    assertThat(refused.position()).isEqualTo(position);
    assertThat(refused.getMessage())
        .startsWith(role.label() + " keys (" + role.variable() + "), entry " + position + ": ")
        .contains(problem);
    // The start-up failure is logged (so the capture sees the log), by role and position.
    assertThat(logged)
        .contains(role.label() + " keys (" + role.variable() + "), entry " + position);
    if (keyBody.length() > 1) {
      assertThat(refused.getMessage()).doesNotContain(keyBody);
      assertThat(logged).doesNotContain(keyBody);
    }
  }

  private static InvalidKeyConfiguration refusal(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof InvalidKeyConfiguration refused) {
        return refused;
      }
    }
    return null;
  }
}
