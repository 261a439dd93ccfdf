package dev.clearway.service.api;

import static dev.clearway.service.api.RunningApi.rows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.service.api.RunningApi.Answer;
import dev.clearway.service.api.RunningApi.Payment;
import dev.clearway.service.api.RunningApi.Rows;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Every bad input gets a 4xx with a JSON body {code, message} whose code is stable, and writes
 * nothing: the row counts of pay_flow, pay_flow_history and idempotency_key stay as they were.
 */
class BadInputHttpTest {
  private static final long MAX_AMOUNT = 1_000_000; // clearway.api.max-amount of RunningApi

  private static RunningApi api;

  private Rows baseline;
  private Payment valid;
  private int keys;
  private int walletCalls;

  @BeforeAll
  static void start() {
    api = RunningApi.start();
  }

  @AfterAll
  static void stop() {
    if (api != null) {
      api.close();
    }
  }

  /** One settled payment first, so that "nothing written" is measured against non-empty tables. */
  @BeforeEach
  void seed() {
    RunningApi.resetDatabase();
    Answer seeded = api.pay("seed-key", Payment.of(1, "seed"));
    assertThat(seeded.status()).as("%s", seeded).isEqualTo(201);
    baseline = rows();
    assertThat(baseline.history()).isPositive();
    valid = Payment.of(300, "bad-input");
    walletCalls = api.wallet.payCalls(300);
  }

  private String freshKey() {
    return "bad-input-key-" + ++keys;
  }

  /** A 4xx JSON {code, message} with this status and code, and no row written. */
  private void assertRefused(Answer answer, int status, String code) {
    assertThat(answer.status()).as("%s", answer).isEqualTo(status);
    assertThat(answer.header("Content-Type"))
        .as("content type of %s", answer)
        .hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
    JsonNode body = answer.json();
    assertThat(body.get("code").asString()).as("%s", answer).isEqualTo(code);
    assertThat(body.get("message").asString()).as("%s", answer).isNotBlank();
    assertThat(rows()).as("rows after %s", answer).isEqualTo(baseline);
    assertThat(api.wallet.payCalls(300)).as("wallet calls").isEqualTo(walletCalls);
  }

  private Answer post(String body) {
    return api.post("/v1/payments").idempotencyKey(freshKey()).body(body).send();
  }

  private Answer post(Payment payment) {
    return post(payment.json());
  }

  @Test
  void malformedJson() {
    assertRefused(post("{\"userId\": 300, \"scene\": "), 400, "malformed_json");
    assertRefused(post("not json at all"), 400, "malformed_json");
    assertRefused(post("[1, 2, 3]"), 400, "malformed_json");
    assertRefused(
        post(valid.json().replace("\"amount\":990", "\"amount\":\"lots\"")), 400, "malformed_json");
  }

  @Test
  void missingFields() {
    assertRefused(post(valid.withUserId(null)), 400, "missing_field");
    assertRefused(post(valid.withScene(null)), 400, "missing_field");
    assertRefused(post(valid.withBizKey(null)), 400, "missing_field");
    assertRefused(post(valid.withAmount(null)), 400, "missing_field");
    assertRefused(post(valid.withCurrency(null)), 400, "missing_field");
    assertRefused(post(valid.withDeadline(null)), 400, "missing_field");
    assertRefused(post(valid.withScene("  ")), 400, "missing_field");
    assertRefused(post(valid.json().replace("\"renewal\"", "null")), 400, "missing_field");
  }

  @Test
  void amountsOfZeroOrLessOrAboveTheMaximum() {
    assertRefused(post(valid.withAmount(0L)), 400, "invalid_amount");
    assertRefused(post(valid.withAmount(-1L)), 400, "invalid_amount");
    assertRefused(post(valid.withAmount(Long.MIN_VALUE)), 400, "invalid_amount");
    assertRefused(post(valid.withAmount(MAX_AMOUNT + 1)), 400, "amount_too_large");
    assertRefused(post(valid.withAmount(Long.MAX_VALUE)), 400, "amount_too_large");
  }

  @Test
  void aFractionalAmountIsRefusedNotTruncated() {
    // Amounts are integer minor units: 990.5 is not a valid amount and must not become 990.
    Answer answer = post(valid.json().replace("\"amount\":990", "\"amount\":990.5"));

    assertThat(answer.status()).as("%s", answer).isEqualTo(400);
    assertThat(answer.code()).as("%s", answer).isIn("invalid_amount", "malformed_json");
    assertThat(rows()).isEqualTo(baseline);
  }

  @Test
  void loosenedJsonIsRefusedNotCoerced() {
    // An amount sent as a string, or a field sent twice, is a malformed request for money.
    assertRefused(
        post(valid.json().replace("\"amount\":990", "\"amount\":\"990\"")), 400, "malformed_json");
    assertRefused(
        post(valid.json().replace("\"amount\":990", "\"amount\":990,\"amount\":1")),
        400,
        "malformed_json");
  }

  @Test
  void currenciesThatAreNotMoneyAndFarDeadlinesAreRefused() {
    assertRefused(post(valid.withCurrency("XXX")), 400, "unknown_currency");
    assertRefused(post(valid.withCurrency("XTS")), 400, "unknown_currency");
    assertRefused(post(valid.withDeadline("+10000-01-01T00:00:00Z")), 400, "deadline_too_far");
    String farAhead = java.time.Instant.now().plus(java.time.Duration.ofDays(500)).toString();
    assertRefused(post(valid.withDeadline(farAhead)), 400, "deadline_too_far");
  }

  @Test
  void aNulCharacterInATextFieldIsABadRequestNotAServerError() {
    // PostgreSQL cannot store U+0000 in text: unless refused up front, the insert fails with 500.
    Answer answer = post(valid.withBizKey("bad\u0000key"));

    assertThat(answer.status()).as("%s", answer).isEqualTo(400);
    assertThat(answer.code()).as("%s", answer).isNotBlank().isNotEqualTo("internal_error");
    assertThat(rows()).isEqualTo(baseline);
  }

  @Test
  void aNulCharacterInTheBizKeyQueryIsABadRequestNotAServerError() {
    Answer answer = api.get("/v1/payment-flows?bizKey=bad%00key").send();

    assertThat(answer.status()).as("%s", answer).isEqualTo(400);
    assertThat(answer.code()).as("%s", answer).isEqualTo("invalid_parameter");
  }

  @Test
  void unknownCurrencies() {
    assertRefused(post(valid.withCurrency("XYZ")), 400, "unknown_currency");
    assertRefused(post(valid.withCurrency("cny")), 400, "unknown_currency");
    assertRefused(post(valid.withCurrency("CN")), 400, "unknown_currency");
  }

  @Test
  void badAndPastDeadlines() {
    assertRefused(post(valid.withDeadline("tomorrow")), 400, "invalid_deadline");
    assertRefused(post(valid.withDeadline("2030-13-01T00:00:00Z")), 400, "invalid_deadline");
    assertRefused(post(valid.withDeadline("2030-01-01")), 400, "invalid_deadline");
    String past = Instant.now().minus(Duration.ofMinutes(1)).truncatedTo(ChronoUnit.SECONDS) + "";
    assertRefused(post(valid.withDeadline(past)), 400, "deadline_passed");
  }

  @Test
  void missingOrOverlongIdempotencyKey() {
    assertRefused(
        api.post("/v1/payments").body(valid.json()).send(), 400, "idempotency_key_missing");
    assertRefused(
        api.post("/v1/payments").idempotencyKey("k".repeat(256)).body(valid.json()).send(),
        400,
        "idempotency_key_too_long");
    // The key is checked first: a missing key on an otherwise bad body still names the key.
    assertRefused(
        api.post("/v1/payments").body(valid.withAmount(0L).json()).send(),
        400,
        "idempotency_key_missing");
  }

  @Test
  void theBoundariesThemselvesAreAccepted() {
    String longest = "k".repeat(255);
    Answer accepted =
        api.post("/v1/payments")
            .idempotencyKey(longest)
            .body(valid.withAmount(MAX_AMOUNT).json())
            .send();

    assertThat(accepted.status()).as("%s", accepted).isEqualTo(201);
    assertThat(accepted.json().get("amount").asLong()).isEqualTo(MAX_AMOUNT);
    assertThat(
            RunningApi.count("SELECT count(*) FROM idempotency_key WHERE length(idem_key) = 255"))
        .isEqualTo(1);
    Answer replay =
        api.post("/v1/payments")
            .idempotencyKey(longest)
            .body(valid.withAmount(MAX_AMOUNT).json())
            .send();
    assertThat(replay.status()).isEqualTo(200);
    assertThat(replay.flowId()).isEqualTo(accepted.flowId());
  }

  @Test
  void bodiesOver64KiBWithContentLengthOrChunked() {
    String padded = valid.json().replace("}", ",\"padding\":\"" + "x".repeat(70 * 1024) + "\"}");
    assertThat(padded.length()).isGreaterThan(64 * 1024);

    assertRefused(post(padded), 413, "body_too_large");
    assertRefused(
        api.post("/v1/payments")
            .idempotencyKey(freshKey())
            .chunkedBody(padded.getBytes(StandardCharsets.UTF_8))
            .send(),
        413,
        "body_too_large");
    // Whitespace counts too: a body is refused by its size, not by what it holds.
    String spaced = " ".repeat(65 * 1024) + valid.json();
    assertRefused(
        api.post("/v1/payments")
            .idempotencyKey(freshKey())
            .chunkedBody(spaced.getBytes(StandardCharsets.UTF_8))
            .send(),
        413,
        "body_too_large");
  }

  @Test
  void aBodyJustUnderTheLimitIsAccepted() {
    String json = valid.json();
    String padded = " ".repeat(64 * 1024 - json.length()) + json;
    assertThat(padded.length()).isEqualTo(64 * 1024);

    Answer accepted =
        api.post("/v1/payments")
            .idempotencyKey(freshKey())
            .chunkedBody(padded.getBytes(StandardCharsets.UTF_8))
            .send();

    assertThat(accepted.status()).as("%s", accepted).isEqualTo(201);
  }

  @Test
  void wrongContentType() {
    assertRefused(
        api.post("/v1/payments")
            .contentType("text/plain")
            .idempotencyKey(freshKey())
            .body(valid.json())
            .send(),
        415,
        "unsupported_media_type");
    assertRefused(
        api.post("/v1/payments")
            .contentType("application/x-www-form-urlencoded")
            .idempotencyKey(freshKey())
            .body("userId=300&amount=990")
            .send(),
        415,
        "unsupported_media_type");
  }

  @Test
  void wrongMethod() {
    assertRefused(api.get("/v1/payments").send(), 405, "method_not_allowed");
    assertRefused(
        api.call("DELETE", "/v1/payment-flows/1").bearer(RunningApi.MERCHANT_KEY).send(),
        405,
        "method_not_allowed");
  }

  @Test
  void unknownAndNonNumericFlows() {
    assertRefused(api.flow(987_654_321L), 404, "flow_not_found");
    assertRefused(api.get("/v1/payment-flows/abc").send(), 400, "invalid_parameter");
    assertRefused(api.get("/v1/payment-flows/1.5").send(), 400, "invalid_parameter");
    assertRefused(api.get("/v1/payment-flows").send(), 400, "invalid_parameter");
  }
}
