package dev.clearway.core.signature;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.signature.WebhookSignature.Result;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WebhookSignatureTest {
  private static final String SECRET = "whsec_test_secret";
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  private static final String BODY =
      "{\"id\":\"evt_1\",\"type\":\"charge.succeeded\",\"tradeOrderNo\":\"t_1_2\"}";

  @Test
  void headerHasTheStripeShape() {
    String header = WebhookSignature.sign(BODY, NOW, SECRET);

    assertThat(header).matches("t=" + NOW.getEpochSecond() + ",v1=[0-9a-f]{64}");
  }

  @Test
  void signatureIsTheHmacOfTimestampDotBodyAsPublishedVectors() throws Exception {
    // Independent computation with the JDK, so that a receiver in another language can follow.
    javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
    mac.init(
        new javax.crypto.spec.SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    byte[] raw = mac.doFinal((NOW.getEpochSecond() + "." + BODY).getBytes(StandardCharsets.UTF_8));
    StringBuilder hex = new StringBuilder();
    for (byte b : raw) {
      hex.append(String.format("%02x", b));
    }

    assertThat(WebhookSignature.sign(BODY, NOW, SECRET))
        .isEqualTo("t=" + NOW.getEpochSecond() + ",v1=" + hex);
  }

  @Test
  void signedBodyVerifies() {
    String header = WebhookSignature.sign(BODY, NOW, SECRET);

    assertThat(WebhookSignature.verify(header, BODY, SECRET, NOW)).isEqualTo(Result.VALID);
    assertThat(
            WebhookSignature.verify(
                header, BODY.getBytes(StandardCharsets.UTF_8), SECRET, NOW.plusSeconds(300)))
        .isEqualTo(Result.VALID);
  }

  @Test
  void tamperedBodyIsABadSignature() {
    String header = WebhookSignature.sign(BODY, NOW, SECRET);

    assertThat(WebhookSignature.verify(header, BODY.replace("t_1_2", "t_1_3"), SECRET, NOW))
        .isEqualTo(Result.BAD_SIGNATURE);
    assertThat(WebhookSignature.verify(header, BODY + " ", SECRET, NOW))
        .isEqualTo(Result.BAD_SIGNATURE);
  }

  @Test
  void wrongSecretIsABadSignature() {
    String header = WebhookSignature.sign(BODY, NOW, "another_secret");

    assertThat(WebhookSignature.verify(header, BODY, SECRET, NOW)).isEqualTo(Result.BAD_SIGNATURE);
  }

  @Test
  void changedTimestampIsABadSignature() {
    String header = WebhookSignature.sign(BODY, NOW, SECRET);
    String shifted = header.replace("t=" + NOW.getEpochSecond(), "t=" + (NOW.getEpochSecond() + 1));

    assertThat(WebhookSignature.verify(shifted, BODY, SECRET, NOW)).isEqualTo(Result.BAD_SIGNATURE);
  }

  @Test
  void timestampsBeyondTheToleranceAreStaleEitherWay() {
    String old = WebhookSignature.sign(BODY, NOW.minusSeconds(301), SECRET);
    String future = WebhookSignature.sign(BODY, NOW.plusSeconds(301), SECRET);
    String edge = WebhookSignature.sign(BODY, NOW.minusSeconds(300), SECRET);

    assertThat(WebhookSignature.verify(old, BODY, SECRET, NOW)).isEqualTo(Result.STALE_TIMESTAMP);
    assertThat(WebhookSignature.verify(future, BODY, SECRET, NOW))
        .isEqualTo(Result.STALE_TIMESTAMP);
    assertThat(WebhookSignature.verify(edge, BODY, SECRET, NOW)).isEqualTo(Result.VALID);
  }

  @Test
  void toleranceIsConfigurable() {
    String header = WebhookSignature.sign(BODY, NOW.minusSeconds(10), SECRET);

    assertThat(WebhookSignature.verify(header, BODY, SECRET, NOW, Duration.ofSeconds(5)))
        .isEqualTo(Result.STALE_TIMESTAMP);
    assertThat(WebhookSignature.verify(header, BODY, SECRET, NOW, Duration.ofSeconds(10)))
        .isEqualTo(Result.VALID);
  }

  @Test
  void forgedStaleRequestIsABadSignatureNotStale() {
    String header = WebhookSignature.sign(BODY, NOW.minusSeconds(3_600), "attacker");

    assertThat(WebhookSignature.verify(header, BODY, SECRET, NOW)).isEqualTo(Result.BAD_SIGNATURE);
  }

  @Test
  void anyOfSeveralV1EntriesMayMatchDuringSecretRotation() {
    String both = WebhookSignature.sign(BODY, NOW, "old_secret", "new_secret");

    assertThat(both).matches("t=\\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}");
    assertThat(WebhookSignature.verify(both, BODY, "old_secret", NOW)).isEqualTo(Result.VALID);
    assertThat(WebhookSignature.verify(both, BODY, "new_secret", NOW)).isEqualTo(Result.VALID);
    assertThat(WebhookSignature.verify(both, BODY, "third_secret", NOW))
        .isEqualTo(Result.BAD_SIGNATURE);
  }

  @Test
  void otherSchemesAndSpacesAreTolerated() {
    String header = WebhookSignature.sign(BODY, NOW, SECRET);
    String v1 = header.substring(header.indexOf("v1="));
    String reordered = " " + v1 + " , v0=deadbeef , t=" + NOW.getEpochSecond();

    assertThat(WebhookSignature.verify(reordered, BODY, SECRET, NOW)).isEqualTo(Result.VALID);
    String upper = "t=" + NOW.getEpochSecond() + ",v1=" + v1.substring(3).toUpperCase();
    assertThat(WebhookSignature.verify(upper, BODY, SECRET, NOW))
        .as("hex digits in upper case")
        .isEqualTo(Result.VALID);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "   ",
        "garbage",
        "t=1772366400",
        "v1=0000000000000000000000000000000000000000000000000000000000000000",
        "t=,v1=0000000000000000000000000000000000000000000000000000000000000000",
        "t=abc,v1=0000000000000000000000000000000000000000000000000000000000000000",
        "t=-5,v1=0000000000000000000000000000000000000000000000000000000000000000",
        "t=1772366400,v1=xyz",
        "t=1772366400,v1=00",
        "t=1772366400,v1=zz00000000000000000000000000000000000000000000000000000000000000",
        "t=1772366400,t=1772366401,v1=0000000000000000000000000000000000000000000000000000000000000000",
        "t=1772366400,,v1=0000000000000000000000000000000000000000000000000000000000000000",
        "t=1772366400,=x,v1=0000000000000000000000000000000000000000000000000000000000000000",
        "t=99999999999999999999,v1=0000000000000000000000000000000000000000000000000000000000000000"
      })
  void malformedHeaders(String header) {
    assertThat(WebhookSignature.verify(header, BODY, SECRET, NOW)).isEqualTo(Result.MALFORMED);
  }

  @Test
  void missingHeaderIsMalformed() {
    assertThat(WebhookSignature.verify(null, BODY, SECRET, NOW)).isEqualTo(Result.MALFORMED);
  }

  @Test
  void misconfiguredReceiverFailsLoudly() {
    String header = WebhookSignature.sign(BODY, NOW, SECRET);

    assertThatThrownBy(() -> WebhookSignature.verify(header, BODY, "", NOW))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> WebhookSignature.verify(header, BODY, SECRET, NOW, Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> WebhookSignature.sign(BODY, NOW))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
