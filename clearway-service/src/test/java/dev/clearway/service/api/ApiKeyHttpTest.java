package dev.clearway.service.api;

import static dev.clearway.service.api.RunningApi.APPROVER_KEY;
import static dev.clearway.service.api.RunningApi.MERCHANT_KEY;
import static dev.clearway.service.api.RunningApi.OPERATOR_KEY;
import static dev.clearway.service.api.RunningApi.rows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.service.api.RunningApi.Answer;
import dev.clearway.service.api.RunningApi.Payment;
import dev.clearway.service.api.RunningApi.Rows;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Merchant keys open the payment API; no key or a wrong key is 401, another role's key is 403;
 * health is open, Prometheus needs a key. No answer ever contains a key.
 */
class ApiKeyHttpTest {
  private static RunningApi api;

  private final List<Answer> answers = new ArrayList<>();
  private Rows before;

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

  @BeforeEach
  void reset() {
    RunningApi.resetDatabase();
    before = rows();
  }

  /** Whatever a test received: no body and no header names any configured key. */
  @AfterEach
  void noAnswerContainsAKey() {
    for (Answer a : answers) {
      for (String key : List.of(MERCHANT_KEY, OPERATOR_KEY, APPROVER_KEY)) {
        assertThat(a.body()).as("body of %s", a).doesNotContain(key);
        assertThat(a.raw().headers().map().toString()).doesNotContain(key);
      }
    }
  }

  private Answer seen(Answer a) {
    answers.add(a);
    return a;
  }

  private RunningApi.Call createCall() {
    return api.post("/v1/payments")
        .idempotencyKey("auth-key-1")
        .body(Payment.of(400, "auth-1").json());
  }

  private void assertError(Answer a, int status, String code) {
    assertThat(a.status()).as("%s", a).isEqualTo(status);
    assertThat(a.header("Content-Type")).hasValueSatisfying(t -> assertThat(t).contains("json"));
    assertThat(a.code()).as("%s", a).isEqualTo(code);
    assertThat(a.text("message")).isNotBlank();
  }

  @Test
  void noKeyOrAWrongKeyIsUnauthorizedAndWritesNothing() {
    assertError(seen(createCall().without("Authorization").send()), 401, "unauthorized");
    assertError(seen(createCall().bearer("not-a-key").send()), 401, "unauthorized");
    assertError(seen(createCall().bearer(MERCHANT_KEY + "x").send()), 401, "unauthorized");
    assertError(
        seen(createCall().header("Authorization", "Basic " + MERCHANT_KEY).send()),
        401,
        "unauthorized");
    assertError(seen(createCall().header("Authorization", "Bearer ").send()), 401, "unauthorized");
    assertError(
        seen(api.get("/v1/payment-flows/1").without("Authorization").send()), 401, "unauthorized");
    assertError(
        seen(api.get("/v1/payment-flows?bizKey=auth-1").bearer("wrong").send()),
        401,
        "unauthorized");
    assertThat(rows()).isEqualTo(before);
    assertThat(api.wallet.payCalls(400)).isZero();
  }

  @Test
  void operatorAndApproverKeysMayNotCallThePaymentApi() {
    assertError(seen(createCall().bearer(OPERATOR_KEY).send()), 403, "forbidden");
    assertError(seen(createCall().bearer(APPROVER_KEY).send()), 403, "forbidden");
    assertError(seen(api.get("/v1/payment-flows/1").bearer(OPERATOR_KEY).send()), 403, "forbidden");
    assertThat(rows()).isEqualTo(before);
  }

  @Test
  void otherRolesCannotReachThePaymentApiThroughAnEncodedOrParameterisedPath() {
    // Spring MVC routes these to POST /v1/payments: a percent-encoded character and a path
    // parameter (";...") are decoded and removed before matching. The role check must see the same
    // path, or an operator key creates payments.
    Map<String, Integer> statuses = new LinkedHashMap<>();
    int i = 0;
    for (String path : List.of("/v1/payments;a=b", "/%761/payments", "/v1;a=b/payments")) {
      Answer a =
          seen(
              api.call("POST", path)
                  .bearer(OPERATOR_KEY)
                  .contentType("application/json")
                  .idempotencyKey("auth-path-" + ++i)
                  .body(Payment.of(410 + i, "auth-path-" + i).json())
                  .send());
      statuses.put("POST " + path, a.status());
    }
    Answer read =
        seen(api.call("GET", "/v1;x=1/payment-flows?bizKey=auth-1").bearer(APPROVER_KEY).send());
    statuses.put("GET /v1;x=1/payment-flows", read.status());

    assertThat(statuses).allSatisfy((path, status) -> assertThat(status).isIn(403, 404));
    assertThat(rows()).isEqualTo(before);
  }

  @Test
  void theMerchantKeyOpensThePaymentApi() {
    Answer created = seen(createCall().send());
    assertThat(created.status()).as("%s", created).isEqualTo(201);
    // Case of the scheme and surrounding blanks do not matter.
    Answer polled =
        seen(
            api.get("/v1/payment-flows/" + created.flowId())
                .header("Authorization", "bearer  " + MERCHANT_KEY + " ")
                .send());
    assertThat(polled.status()).as("%s", polled).isEqualTo(200);
    assertThat(polled.flowId()).isEqualTo(created.flowId());
  }

  @Test
  void healthIsOpenWithoutAKeyAndPrometheusIsNot() {
    Answer health = seen(api.call("GET", "/actuator/health").send());
    assertThat(health.status()).as("%s", health).isEqualTo(200);
    assertThat(health.text("status")).isEqualTo("UP");

    assertError(seen(api.call("GET", "/actuator/prometheus").send()), 401, "unauthorized");
    Answer prometheus = seen(api.call("GET", "/actuator/prometheus").bearer(OPERATOR_KEY).send());
    assertThat(prometheus.status()).as("%s", prometheus).isEqualTo(200);
    assertThat(prometheus.body()).contains("# TYPE");

    // A wrong key does not close health.
    Answer healthWithWrongKey = seen(api.call("GET", "/actuator/health").bearer("wrong").send());
    assertThat(healthWithWrongKey.status()).isEqualTo(200);
  }

  @Test
  void otherActuatorEndpointsAreNotOpen() {
    Answer env = seen(api.call("GET", "/actuator/env").send());
    assertThat(env.status()).as("%s", env).isEqualTo(401);
    Answer envWithKey = seen(api.call("GET", "/actuator/env").bearer(OPERATOR_KEY).send());
    assertThat(envWithKey.status()).as("%s", envWithKey).isEqualTo(404);
  }
}
