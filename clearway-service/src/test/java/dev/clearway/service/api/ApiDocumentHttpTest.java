package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The OpenAPI document of the running service is complete enough for a client generator: a bearer
 * scheme per role required where the key filter requires it, the Idempotency-Key required on
 * creates, 201 where a create answers it, and every error answer a {code, message} body whose codes
 * are listed and shown.
 */
class ApiDocumentHttpTest {
  private static RunningApi api;
  private static JsonNode doc;

  @BeforeAll
  static void start() {
    api = RunningApi.start();
    RunningApi.Answer answer = api.call("GET", "/v3/api-docs").send();
    assertThat(answer.status()).as("%s", answer).isEqualTo(200);
    doc = answer.json();
  }

  @AfterAll
  static void stop() {
    if (api != null) {
      api.close();
    }
  }

  private static JsonNode operation(String method, String path) {
    JsonNode op = doc.path("paths").path(path).path(method);
    assertThat(op.isMissingNode()).as("%s %s is documented", method, path).isFalse();
    return op;
  }

  private static List<String> schemes(JsonNode op) {
    List<String> names = new ArrayList<>();
    op.path("security").forEach(req -> req.propertyNames().forEach(names::add));
    return names;
  }

  @Test
  void declaresOneBearerSchemePerRole() {
    JsonNode schemes = doc.path("components").path("securitySchemes");
    for (String name : List.of("merchantKey", "operatorKey", "approverKey", "metricsKey")) {
      assertThat(schemes.path(name).path("type").asString()).as(name).isEqualTo("http");
      assertThat(schemes.path(name).path("scheme").asString()).as(name).isEqualTo("bearer");
    }
  }

  @Test
  void eachPathGroupRequiresTheKeysTheFilterAdmits() {
    assertThat(schemes(operation("post", "/v1/payments"))).containsExactly("merchantKey");
    assertThat(schemes(operation("get", "/v1/refunds/{refundId}"))).containsExactly("merchantKey");
    assertThat(schemes(operation("post", "/ops/intake")))
        .containsExactly("operatorKey", "approverKey");
    assertThat(schemes(operation("post", "/ops/review/commands/{commandId}/approve")))
        .containsExactly("operatorKey", "approverKey");
    assertThat(schemes(operation("get", "/actuator/prometheus")))
        .containsExactly("operatorKey", "metricsKey");
    assertThat(operation("post", "/v1/callbacks/{channel}").has("security")).isFalse();
  }

  @Test
  void everySecuredOperationDocumentsItsKeyRefusalsAndEveryOperationItsErrors() {
    doc.path("paths")
        .properties()
        .forEach(
            path ->
                path.getValue()
                    .properties()
                    .forEach(
                        op -> {
                          String name = op.getKey() + " " + path.getKey();
                          JsonNode responses = op.getValue().path("responses");
                          assertThat(responses.has("500")).as(name).isTrue();
                          if (!ApiKeyFilter.isOpen(path.getKey())) {
                            assertThat(schemes(op.getValue())).as(name).isNotEmpty();
                            assertThat(codes(responses, "401")).as(name).contains("unauthorized");
                            assertThat(codes(responses, "403")).as(name).contains("forbidden");
                          }
                        }));
  }

  @Test
  void createsRequireTheirIdempotencyKey() {
    for (String path : List.of("/v1/payments", "/v1/payment-flows/{flowId}/refunds")) {
      JsonNode key = null;
      for (JsonNode p : operation("post", path).path("parameters")) {
        if (p.path("name").asString().equals("Idempotency-Key")) {
          key = p;
        }
      }
      assertThat(key).as(path).isNotNull();
      assertThat(key.path("in").asString()).isEqualTo("header");
      assertThat(key.path("required").asBoolean()).as(path).isTrue();
      assertThat(key.path("schema").path("maxLength").asInt()).isEqualTo(255);
    }
  }

  @Test
  void createsAnswer201And200AndListTheirRefusalsWithExamples() {
    JsonNode responses = operation("post", "/v1/payments").path("responses");
    assertThat(responses.propertyNames())
        .contains(
            "200", "201", "400", "401", "403", "404", "409", "413", "415", "422", "500", "503");
    assertThat(responses.path("201").path("content").path("application/json").path("schema"))
        .as("201 carries the flow")
        .isNotEmpty();
    assertThat(codes(responses, "400"))
        .contains("missing_field", "invalid_amount", "idempotency_key_missing", "malformed_json");
    assertThat(codes(responses, "422")).contains("idempotency_key_reused");
    assertThat(codes(responses, "503")).contains("overloaded", "shutting_down", "intake_closed");
    assertThat(responses.path("503").path("headers").has("Retry-After")).isTrue();
    assertThat(responses.path("400").path("description").asString())
        .contains("`missing_field`", "`unknown_currency`");
    JsonNode error = responses.path("422").path("content").path("application/json");
    assertThat(error.path("schema").path("$ref").asString())
        .isEqualTo("#/components/schemas/ApiError");
    assertThat(
            error
                .path("examples")
                .path("idempotency_key_reused")
                .path("value")
                .path("code")
                .asString())
        .isEqualTo("idempotency_key_reused");

    JsonNode refund = operation("post", "/v1/payment-flows/{flowId}/refunds").path("responses");
    assertThat(refund.propertyNames()).contains("200", "201", "404", "409", "422", "503");
    assertThat(codes(refund, "422")).contains("refund_exceeds_payment", "idempotency_key_reused");
    assertThat(codes(refund, "409")).contains("refund_not_allowed");
    assertThat(
            operation("post", "/ops/review/flows/{flowId}/commands").path("responses").has("201"))
        .isTrue();
  }

  @Test
  void readsAndCancelsListTheirOwnRefusals() {
    assertThat(codes(operation("get", "/v1/payment-flows/{flowId}").path("responses"), "404"))
        .contains("flow_not_found");
    assertThat(codes(operation("get", "/v1/payment-flows/{flowId}").path("responses"), "400"))
        .contains("invalid_parameter");
    assertThat(
            codes(operation("post", "/v1/payment-flows/{flowId}/cancel").path("responses"), "409"))
        .contains("cancel_not_possible");
    assertThat(codes(operation("get", "/ops/late-charges").path("responses"), "400"))
        .contains("invalid_cursor", "invalid_parameter");
  }

  @Test
  void requestBodiesCarryExamples() {
    JsonNode payment = doc.path("components").path("schemas").path("CreatePaymentRequest");
    assertThat(payment.path("required").toString()).contains("amount", "currency", "bizDeadline");
    assertThat(payment.path("properties").path("currency").path("example").asString())
        .isEqualTo("CNY");
    assertThat(doc.path("components").path("schemas").has("JsonNode"))
        .as("a JSON tree is any value, not a bean")
        .isFalse();
  }

  private static List<String> codes(JsonNode responses, String status) {
    JsonNode examples = responses.path(status).path("content").path("application/json");
    List<String> codes = new ArrayList<>();
    examples.path("examples").propertyNames().forEach(codes::add);
    return codes;
  }
}
