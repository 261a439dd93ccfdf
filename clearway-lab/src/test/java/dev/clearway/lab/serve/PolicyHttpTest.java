package dev.clearway.lab.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.psp.policy.DefaultRecoveryPolicy;
import dev.clearway.service.api.OutputCapture;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The recovery policy release path over real HTTP on {@code serve --channels}: a bad policy is
 * refused with its code and changes nothing; a good one is submitted, validated, dry-run over the
 * recorded attempt of a real payment, rolled out, promoted by a second person and rolled back to
 * the last known good, every step audited with its person.
 */
class PolicyHttpTest {
  private static final String MERCHANT = "mk_test_policy_4c1e9a";
  private static final String OPERATOR_OLGA = "ok_test_policy_olga_7b2d";
  private static final String APPROVER_OLGA = "ak_test_policy_olga_3e8f";
  private static final String APPROVER_ALICE = "ak_test_policy_alice_9a1c";
  private static final String DEFAULT_VERSION = "default-2026-01-01";
  private static final String NEW_VERSION = "faster-2026-02-01";
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private String base;

  @Test
  void aPolicyGoesFromSubmitToRollbackWithMakerCheckerAndAudit() throws Exception {
    Serve.Options options =
        Serve.Options.defaults()
            .withPort(0)
            .withChannels()
            .withProperties(
                Map.of(
                    "clearway.keys.merchant",
                    MERCHANT,
                    // Olga holds an operator and an approver key, her name spelled differently
                    // in each: she is one person, who may not promote her own version.
                    "clearway.keys.operator",
                    "Olga=" + OPERATOR_OLGA,
                    "clearway.keys.approver",
                    " olga =" + APPROVER_OLGA + ",alice=" + APPROVER_ALICE,
                    "clearway.timing",
                    "compressed"));
    try (OutputCapture output = new OutputCapture();
        Serve.Running running =
            Serve.start(options, new PrintStream(OutputStream.nullOutputStream()))) {
      base = "http://127.0.0.1:" + running.port();

      // No key, a merchant key: refused before anything is read.
      assertThat(send("GET", "/ops/policies", null, null, null).statusCode()).isEqualTo(401);
      assertThat(send("GET", "/ops/policies", MERCHANT, null, null).statusCode()).isEqualTo(403);

      HttpResponse<String> before = send("GET", "/ops/policies", OPERATOR_OLGA, null, null);
      assertThat(before.statusCode()).isEqualTo(200);
      JsonNode overview = JSON.readTree(before.body());
      assertThat(overview.path("rollout").path("stableVersion").asString())
          .isEqualTo(DEFAULT_VERSION);
      assertThat(overview.path("versions").path("items")).hasSize(1);
      assertThat(overview.path("versions").path("nextCursor").isNull()).isTrue();
      assertThat(overview.path("versions").path("items").get(0).path("status").asString())
          .isEqualTo("ACTIVE");

      pay(running, "pol-1");
      long recorded = count(running, "SELECT count(*) FROM payment_attempt");
      assertThat(recorded).isPositive();

      // A bad policy: the parser's code and paths, nothing written.
      String bad =
          DefaultRecoveryPolicy.text()
              .replace("version: " + DEFAULT_VERSION, "version: broken-1")
              .replace("delays: [10s, 30s, 2m, 10m, 30m]", "delays: [10s, soon]");
      HttpResponse<String> refused = submit(bad, OPERATOR_OLGA, "application/yaml");
      assertThat(refused.statusCode()).as(refused.body()).isEqualTo(422);
      JsonNode refusal = JSON.readTree(refused.body());
      assertThat(refusal.path("code").asString()).isEqualTo("bad_duration");
      assertThat(refusal.path("problems").get(0).path("message").asString())
          .startsWith("rules[0].delays[1]");
      assertThat(refused.body()).doesNotContain("soon");
      assertThat(send("GET", "/ops/policies", OPERATOR_OLGA, null, null).body())
          .isEqualTo(before.body());
      assertThat(send("GET", "/ops/policies/broken-1", OPERATOR_OLGA, null, null).statusCode())
          .isEqualTo(404);

      // Submitting needs an operator, and a YAML or text body.
      assertThat(submit(bad, APPROVER_ALICE, "text/plain").statusCode()).isEqualTo(403);
      HttpResponse<String> asJson = submit("{}", OPERATOR_OLGA, "application/json");
      assertThat(asJson.statusCode()).isEqualTo(415);
      assertThat(code(asJson)).isEqualTo("unsupported_media_type");

      // A good one: new version, faster delays for stripe card creates.
      String good =
          DefaultRecoveryPolicy.text()
              .replace("version: " + DEFAULT_VERSION, "version: " + NEW_VERSION)
              .replace("delays: [10s, 30s, 2m, 10m, 30m]", "delays: [5s, 20s, 1m, 10m, 30m]");
      HttpResponse<String> draft = submit(good, OPERATOR_OLGA, "text/plain");
      assertThat(draft.statusCode()).as(draft.body()).isEqualTo(201);
      assertThat(JSON.readTree(draft.body()).path("status").asString()).isEqualTo("DRAFT");
      assertThat(JSON.readTree(draft.body()).path("createdBy").asString()).isEqualTo("olga");
      HttpResponse<String> again = submit(good, OPERATOR_OLGA, "text/plain");
      assertThat(again.statusCode()).isEqualTo(409);
      assertThat(code(again)).isEqualTo("version_exists");

      // Rollout before validation and dry run: a state conflict.
      HttpResponse<String> early = post("/rollout", OPERATOR_OLGA, "{\"percent\":10}");
      assertThat(early.statusCode()).isEqualTo(409);
      assertThat(code(early)).isEqualTo("not_validated");

      HttpResponse<String> validated = post("/validate", OPERATOR_OLGA, null);
      assertThat(validated.statusCode()).as(validated.body()).isEqualTo(200);
      assertThat(JSON.readTree(validated.body()).path("status").asString()).isEqualTo("VALIDATED");

      HttpResponse<String> dryRun = post("/dry-run", OPERATOR_OLGA, null);
      assertThat(dryRun.statusCode()).as(dryRun.body()).isEqualTo(200);
      JsonNode report = JSON.readTree(dryRun.body());
      assertThat(report.path("candidateVersion").asString()).isEqualTo(NEW_VERSION);
      assertThat(report.path("currentVersion").asString()).isEqualTo(DEFAULT_VERSION);
      assertThat(report.path("total").asLong()).isEqualTo(recorded);
      assertThat(report.path("unmatched").path("count").asInt()).isZero();
      assertThat(report.path("changedRules").path("count").asLong()).isEqualTo(recorded);
      assertThat(report.path("budgets").get(0).path("attempts").asLong()).isEqualTo(recorded);

      // Bad input to the rollout: JSON that is not JSON, a percent out of range.
      HttpResponse<String> notJson = post("/rollout", OPERATOR_OLGA, "{\"percent\":");
      assertThat(notJson.statusCode()).isEqualTo(400);
      assertThat(code(notJson)).isEqualTo("malformed_json");
      HttpResponse<String> stringPercent = post("/rollout", OPERATOR_OLGA, "{\"percent\":\"10\"}");
      assertThat(stringPercent.statusCode()).isEqualTo(400);
      HttpResponse<String> tooMuch = post("/rollout", OPERATOR_OLGA, "{\"percent\":101}");
      assertThat(tooMuch.statusCode()).isEqualTo(422);
      assertThat(code(tooMuch)).isEqualTo("bad_percent");

      HttpResponse<String> rollout = post("/rollout", OPERATOR_OLGA, "{\"percent\":10}");
      assertThat(rollout.statusCode()).as(rollout.body()).isEqualTo(200);
      JsonNode state = JSON.readTree(rollout.body());
      assertThat(state.path("candidateVersion").asString()).isEqualTo(NEW_VERSION);
      assertThat(state.path("candidatePercent").asInt()).isEqualTo(10);
      assertThat(state.path("stableVersion").asString()).isEqualTo(DEFAULT_VERSION);

      // Promotion: not by an operator, not by the approver who is the submitter.
      assertThat(post("/promote", OPERATOR_OLGA, null).statusCode()).isEqualTo(403);
      HttpResponse<String> samePerson = post("/promote", APPROVER_OLGA, null);
      assertThat(samePerson.statusCode()).isEqualTo(403);
      assertThat(code(samePerson)).isEqualTo("same_person");

      HttpResponse<String> promoted = post("/promote", APPROVER_ALICE, null);
      assertThat(promoted.statusCode()).as(promoted.body()).isEqualTo(200);
      assertThat(JSON.readTree(promoted.body()).path("stableVersion").asString())
          .isEqualTo(NEW_VERSION);
      assertThat(JSON.readTree(promoted.body()).path("candidateVersion").isNull()).isTrue();

      // Rollback needs a reason and an approver; then the last known good is ACTIVE again.
      HttpResponse<String> noReason = post("/rollback", APPROVER_ALICE, "{}");
      assertThat(noReason.statusCode()).isEqualTo(422);
      assertThat(code(noReason)).isEqualTo("reason_required");
      assertThat(post("/rollback", OPERATOR_OLGA, "{\"reason\":\"x\"}").statusCode())
          .isEqualTo(403);
      HttpResponse<String> rolledBack =
          post("/rollback", APPROVER_ALICE, "{\"reason\":\"more PSP load than planned\"}");
      assertThat(rolledBack.statusCode()).as(rolledBack.body()).isEqualTo(200);
      assertThat(JSON.readTree(rolledBack.body()).path("stableVersion").asString())
          .isEqualTo(DEFAULT_VERSION);

      JsonNode after =
          JSON.readTree(send("GET", "/ops/policies", APPROVER_ALICE, null, null).body());
      assertThat(after.path("rollout").path("stableVersion").asString()).isEqualTo(DEFAULT_VERSION);
      assertThat(statusOf(after, DEFAULT_VERSION)).isEqualTo("ACTIVE");
      assertThat(statusOf(after, NEW_VERSION)).isEqualTo("ROLLED_BACK");

      HttpResponse<String> detail =
          send("GET", "/ops/policies/" + NEW_VERSION, OPERATOR_OLGA, null, null);
      assertThat(detail.statusCode()).isEqualTo(200);
      // The audit trail, newest first.
      JsonNode audit = JSON.readTree(detail.body()).path("audit").path("items");
      List<String> steps = new ArrayList<>();
      for (JsonNode e : audit) {
        steps.add(e.path("action").asString() + " by " + e.path("actor").asString());
      }
      assertThat(steps)
          .containsExactly(
              "ROLLBACK by alice",
              "PROMOTE by alice",
              "ROLLOUT by olga",
              "DRY_RUN by system",
              "VALIDATE by system",
              "SUBMIT by olga");
      assertThat(audit.get(0).path("reason").asString()).isEqualTo("more PSP load than planned");
      assertThat(JSON.readTree(detail.body()).path("policy").path("body").asString())
          .isEqualTo(good);

      // A rolled-back version cannot be rolled out again; the restored one has no rollout.
      HttpResponse<String> pause = post("/pause", OPERATOR_OLGA, "{\"reason\":\"wait\"}");
      assertThat(pause.statusCode()).isEqualTo(409);
      assertThat(code(pause)).isEqualTo("no_rollout");

      // The audit trail and the log name people, never their keys.
      for (String key : List.of(OPERATOR_OLGA, APPROVER_OLGA, APPROVER_ALICE, MERCHANT)) {
        assertThat(detail.body()).doesNotContain(key);
        assertThat(output.text()).doesNotContain(key);
      }
    }
  }

  @Test
  void withoutTheChannelLayerThereAreNoPolicies() throws Exception {
    Serve.Options options =
        Serve.Options.defaults()
            .withPort(0)
            .withProperties(
                Map.of(
                    "clearway.keys.merchant", MERCHANT,
                    "clearway.keys.operator", "olga=" + OPERATOR_OLGA,
                    "clearway.keys.approver", "alice=" + APPROVER_ALICE));
    try (Serve.Running running =
        Serve.start(options, new PrintStream(OutputStream.nullOutputStream()))) {
      base = "http://127.0.0.1:" + running.port();
      HttpResponse<String> list = send("GET", "/ops/policies", OPERATOR_OLGA, null, null);
      assertThat(list.statusCode()).isEqualTo(404);
      assertThat(code(list)).isEqualTo("channels_disabled");
      HttpResponse<String> promote =
          send("POST", "/ops/policies/v1/promote", APPROVER_ALICE, null, null);
      assertThat(promote.statusCode()).isEqualTo(404);
      assertThat(code(promote)).isEqualTo("channels_disabled");
    }
  }

  private void pay(Serve.Running running, String bizKey) throws Exception {
    String body =
        "{\"userId\":7,\"scene\":\"renew\",\"bizKey\":\""
            + bizKey
            + "\",\"amount\":1500,\"currency\":\"EUR\",\"bizDeadline\":\""
            + Instant.now().plusSeconds(60)
            + "\"}";
    HttpResponse<String> created =
        http.send(
            HttpRequest.newBuilder(URI.create(base + "/v1/payments"))
                .header("Authorization", "Bearer " + MERCHANT)
                .header("Idempotency-Key", bizKey)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(created.statusCode()).as(created.body()).isIn(200, 201, 202);
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    String status = "";
    while (System.nanoTime() < deadline && !"BIZ_SUCCESS".equals(status)) {
      Thread.sleep(100);
      status = text(running, "SELECT status FROM pay_flow WHERE biz_key = '" + bizKey + "'");
    }
    assertThat(status).isEqualTo("BIZ_SUCCESS");
  }

  private HttpResponse<String> submit(String yaml, String key, String contentType)
      throws Exception {
    return send("POST", "/ops/policies", key, contentType, yaml);
  }

  private HttpResponse<String> post(String action, String key, String json) throws Exception {
    return send(
        "POST",
        "/ops/policies/" + NEW_VERSION + action,
        key,
        json == null ? null : "application/json",
        json);
  }

  private HttpResponse<String> send(
      String method, String path, String key, String contentType, String body) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base + path))
            .timeout(Duration.ofSeconds(30))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (key != null) {
      b.header("Authorization", "Bearer " + key);
    }
    if (contentType != null) {
      b.header("Content-Type", contentType);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String code(HttpResponse<String> response) {
    return JSON.readTree(response.body()).path("code").asString();
  }

  private static String statusOf(JsonNode overview, String version) {
    for (JsonNode v : overview.path("versions").path("items")) {
      if (version.equals(v.path("version").asString())) {
        return v.path("status").asString();
      }
    }
    return null;
  }

  private static String text(Serve.Running running, String sql) throws Exception {
    try (Connection c = running.database().dataSource().getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  private static long count(Serve.Running running, String sql) throws Exception {
    String v = text(running, sql);
    return v == null ? 0 : Long.parseLong(v);
  }
}
