package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.service.api.ReconSeed.Row;
import dev.clearway.store.testing.TestDatabase;
import dev.clearway.store.testing.TestSql;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * /ops/reconciliation over real HTTP and the embedded PostgreSQL: tickets resolved by maker/checker
 * (the proposer cannot approve, another person resolves, a difference that moved fails the command,
 * bad input writes nothing), the differences with filters and paging, the summary's figures, and
 * merchants kept out.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class ReconciliationHttpTest {
  /** Olivia's approver key: the operator who proposes also holds the approver role. */
  static final String OLIVIA_APPROVER_KEY = "ak_test_olivia_5e1d7c9b3a0f";

  private static RunningApi api;

  @BeforeAll
  static void start() {
    api =
        RunningApi.start(
            "clearway.keys.approver=aaron="
                + RunningApi.APPROVER_KEY
                + ", Olivia ="
                + OLIVIA_APPROVER_KEY);
  }

  @AfterAll
  static void stop() {
    api.close();
  }

  @BeforeEach
  void reset() {
    ReconSeed.reset();
  }

  private RunningApi.Answer as(String key, String method, String path, String json) {
    RunningApi.Call call = api.call(method, path).bearer(key);
    if (json != null) {
      call.contentType("application/json").body(json);
    }
    return call.send();
  }

  private static String proposal(String kind) {
    return "{\"kind\":\""
        + kind
        + "\",\"ticket\":\"FIN-42\",\"reason\":\"refunded by the PSP's support\","
        + "\"evidence\":\"PSP case re_77812\"}";
  }

  private static String state(long differenceId) {
    return ReconSeed.text(
        "SELECT state || ' v' || version FROM recon_difference WHERE id = " + differenceId);
  }

  @Test
  void theProposerCannotApproveAndAnotherPersonResolvesTheTicket() {
    long id = ReconSeed.insert(Row.ticket("acct_a", "AMOUNT_MISMATCH", "T100", 990));

    RunningApi.Answer proposed =
        as(
            RunningApi.OPERATOR_KEY,
            "POST",
            "/ops/reconciliation/differences/" + id + "/commands",
            proposal("RESOLVE_REPAIRED_OUTSIDE"));
    assertThat(proposed.status()).as(proposed.toString()).isEqualTo(201);
    assertThat(proposed.text("state")).isEqualTo("PROPOSED");
    assertThat(proposed.text("operatorId")).isEqualTo("olivia");
    assertThat(proposed.json().get("expectedVersion").asLong()).isZero();
    long command = proposed.json().get("id").asLong();
    assertThat(state(id)).isEqualTo("NEEDS_PERSON v0");

    // Olivia with her approver key is still Olivia: refused, to approve and to reject.
    RunningApi.Answer self =
        as(
            OLIVIA_APPROVER_KEY,
            "POST",
            "/ops/reconciliation/commands/" + command + "/approve",
            null);
    assertThat(self.status()).isEqualTo(409);
    assertThat(self.code()).isEqualTo("same_person");
    RunningApi.Answer selfReject =
        as(
            OLIVIA_APPROVER_KEY,
            "POST",
            "/ops/reconciliation/commands/" + command + "/reject",
            "{\"reason\":\"no\"}");
    assertThat(selfReject.code()).isEqualTo("same_person");
    // An operator key cannot approve at all.
    assertThat(
            as(
                    RunningApi.OPERATOR_KEY,
                    "POST",
                    "/ops/reconciliation/commands/" + command + "/approve",
                    null)
                .status())
        .isEqualTo(403);
    assertThat(state(id)).isEqualTo("NEEDS_PERSON v0");
    assertThat(
            ReconSeed.text(
                "SELECT " + TestSql.stringAgg("action", ",", "id") + " FROM recon_audit"))
        .isEqualTo("PROPOSE");

    RunningApi.Answer approved =
        as(
            RunningApi.APPROVER_KEY,
            "POST",
            "/ops/reconciliation/commands/" + command + "/approve",
            null);
    assertThat(approved.status()).as(approved.toString()).isEqualTo(200);
    assertThat(approved.text("state")).isEqualTo("APPLIED");
    assertThat(approved.text("approverId")).isEqualTo("aaron");
    assertThat(state(id)).isEqualTo("RESOLVED v1");

    String audit =
        ReconSeed.text(
            "SELECT "
                + TestSql.stringAgg(
                    "actor_id || ' ' || role || ' ' || action || ' ' || coalesce(detail,'')",
                    "; ",
                    "id")
                + " FROM recon_audit WHERE difference_id = "
                + id);
    assertThat(audit)
        .isEqualTo(
            "olivia OPERATOR PROPOSE RESOLVE_REPAIRED_OUTSIDE ticket FIN-42;"
                + " aaron APPROVER APPROVE RESOLVE_REPAIRED_OUTSIDE");
    // No key and no evidence text in the audit.
    assertThat(audit)
        .doesNotContain(RunningApi.OPERATOR_KEY)
        .doesNotContain(RunningApi.APPROVER_KEY)
        .doesNotContain("re_77812");
    assertThat(
            ReconSeed.text(
                "SELECT from_state || '>' || to_state || ' v' || version || ' ' || actor"
                    + " FROM recon_difference_history WHERE difference_id = "
                    + id
                    + " ORDER BY id DESC LIMIT 1"))
        .isEqualTo("NEEDS_PERSON>RESOLVED v1 aaron");

    // The detail shows the history, the command and the audit.
    JsonNode detail =
        as(RunningApi.APPROVER_KEY, "GET", "/ops/reconciliation/differences/" + id, null).json();
    assertThat(detail.get("difference").get("state").asString()).isEqualTo("RESOLVED");
    assertThat(detail.get("history")).hasSize(2);
    assertThat(detail.get("commands").get("items").get(0).get("state").asString())
        .isEqualTo("APPLIED");
    assertThat(detail.get("audit").get("items")).hasSize(2);

    // A decided command cannot be decided again.
    RunningApi.Answer again =
        as(
            RunningApi.APPROVER_KEY,
            "POST",
            "/ops/reconciliation/commands/" + command + "/reject",
            "{\"reason\":\"late\"}");
    assertThat(again.status()).isEqualTo(409);
    assertThat(again.code()).isEqualTo("command_not_open");
  }

  @Test
  void aDifferenceThatMovedSinceTheProposalFailsTheApprovalAndNothingElseChanges() {
    long id = ReconSeed.insert(Row.ticket("acct_a", "FEE_MISMATCH", "T200", 30));
    long command =
        as(
                RunningApi.OPERATOR_KEY,
                "POST",
                "/ops/reconciliation/differences/" + id + "/commands",
                proposal("ACCEPT_DIFFERENCE"))
            .json()
            .get("id")
            .asLong();
    // Someone else wrote the difference meanwhile (a newer run saw it again).
    RunningApi.execute(
        "UPDATE recon_difference SET version = version + 1, updated_at = now() WHERE id = " + id);

    RunningApi.Answer approved =
        as(
            RunningApi.APPROVER_KEY,
            "POST",
            "/ops/reconciliation/commands/" + command + "/approve",
            null);
    assertThat(approved.status()).isEqualTo(200);
    assertThat(approved.text("state")).isEqualTo("FAILED");
    assertThat(approved.text("result")).isEqualTo("DIFFERENCE_CHANGED");
    assertThat(state(id)).isEqualTo("NEEDS_PERSON v1");
    assertThat(
            ReconSeed.text(
                "SELECT " + TestSql.stringAgg("action", ",", "id") + " FROM recon_audit"))
        .isEqualTo("PROPOSE,FAIL");
    assertThat(
            ReconSeed.text(
                "SELECT count(*) FROM recon_difference_history WHERE difference_id = " + id))
        .isEqualTo("1");

    // The ticket is open again for a fresh proposal on the version now in force.
    RunningApi.Answer fresh =
        as(
            RunningApi.OPERATOR_KEY,
            "POST",
            "/ops/reconciliation/differences/" + id + "/commands",
            proposal("ACCEPT_DIFFERENCE"));
    assertThat(fresh.status()).isEqualTo(201);
    assertThat(fresh.json().get("expectedVersion").asLong()).isEqualTo(1);
  }

  @Test
  void badInputIsRefusedWithAStableCodeAndWritesNothing() {
    long id = ReconSeed.insert(Row.ticket("acct_a", "UNKNOWN_STATEMENT_LINE", "X1", 500));
    long open =
        ReconSeed.insert(Row.ticket("acct_a", "MISSING_FROM_STATEMENT", "T9", 500).state("OPEN"));
    String path = "/ops/reconciliation/differences/" + id + "/commands";
    String k = RunningApi.OPERATOR_KEY;

    assertThat(
            as(
                    k,
                    "POST",
                    path,
                    "{\"kind\":\"DELETE_IT\",\"ticket\":\"t\",\"reason\":\"r\","
                        + "\"evidence\":\"e\"}")
                .code())
        .isEqualTo("invalid_command");
    RunningApi.Answer missing =
        as(k, "POST", path, "{\"kind\":\"ACCEPT_DIFFERENCE\",\"reason\":\"r\",\"evidence\":\"e\"}");
    assertThat(missing.status()).isEqualTo(400);
    assertThat(missing.code()).isEqualTo("missing_field");
    RunningApi.Answer tooLong =
        as(
            k,
            "POST",
            path,
            "{\"kind\":\"ACCEPT_DIFFERENCE\",\"ticket\":\""
                + "x".repeat(65)
                + "\",\"reason\":\"r\",\"evidence\":\"e\"}");
    assertThat(tooLong.code()).isEqualTo("field_too_long");
    assertThat(as(k, "POST", path, null).code()).isEqualTo("missing_body");
    assertThat(as(k, "POST", path, "{not json").code()).isEqualTo("malformed_json");
    RunningApi.Answer notWaiting =
        as(
            k,
            "POST",
            "/ops/reconciliation/differences/" + open + "/commands",
            proposal("ACCEPT_DIFFERENCE"));
    assertThat(notWaiting.status()).isEqualTo(409);
    assertThat(notWaiting.code()).isEqualTo("difference_not_waiting");
    assertThat(
            as(
                    k,
                    "POST",
                    "/ops/reconciliation/differences/99999/commands",
                    proposal("ACCEPT_DIFFERENCE"))
                .status())
        .isEqualTo(404);
    assertThat(
            as(RunningApi.APPROVER_KEY, "POST", "/ops/reconciliation/commands/99999/approve", null)
                .status())
        .isEqualTo(404);
    // An approver key cannot propose.
    assertThat(as(RunningApi.APPROVER_KEY, "POST", path, proposal("ACCEPT_DIFFERENCE")).status())
        .isEqualTo(403);
    assertThat(ReconSeed.text("SELECT count(*) FROM recon_command")).isEqualTo("0");
    assertThat(ReconSeed.text("SELECT count(*) FROM recon_audit")).isEqualTo("0");

    assertThat(as(k, "POST", path, proposal("ACCEPT_DIFFERENCE")).status()).isEqualTo(201);
    RunningApi.Answer second = as(k, "POST", path, proposal("RESOLVE_REPAIRED_OUTSIDE"));
    assertThat(second.status()).isEqualTo(409);
    assertThat(second.code()).isEqualTo("command_already_open");
    assertThat(ReconSeed.text("SELECT count(*) FROM recon_command")).isEqualTo("1");
    assertThat(ReconSeed.text("SELECT count(*) FROM recon_audit")).isEqualTo("1");
    assertThat(state(id)).isEqualTo("NEEDS_PERSON v0");
  }

  @Test
  void differencesAreFilteredAndPagedNewestFirst() {
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      ids.add(ReconSeed.insert(Row.ticket("acct_a", "AMOUNT_MISMATCH", "TA" + i, 100 + i)));
    }
    long b1 =
        ReconSeed.insert(Row.ticket("acct_b", "FEE_MISMATCH", "TB1", 7).confidence("SUGGESTED"));
    long b2 = ReconSeed.insert(Row.ticket("acct_b", "LATE_CHARGE", "TB2", 8).state("RESOLVED"));
    String k = RunningApi.OPERATOR_KEY;

    List<Long> seen = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      JsonNode page =
          as(
                  k,
                  "GET",
                  "/ops/reconciliation/differences?account=acct_a&limit=2"
                      + (cursor == null ? "" : "&cursor=" + cursor),
                  null)
              .json();
      page.get("items")
          .forEach(
              d -> {
                assertThat(d.get("account").asString()).isEqualTo("acct_a");
                seen.add(d.get("id").asLong());
              });
      cursor = page.get("nextCursor").isNull() ? null : page.get("nextCursor").asString();
      pages++;
    } while (cursor != null && pages < 10);
    assertThat(pages).isEqualTo(3);
    assertThat(seen).containsExactly(ids.get(4), ids.get(3), ids.get(2), ids.get(1), ids.get(0));

    assertThat(ids(as(k, "GET", "/ops/reconciliation/differences?class=FEE_MISMATCH", null)))
        .containsExactly(b1);
    assertThat(ids(as(k, "GET", "/ops/reconciliation/differences?state=RESOLVED", null)))
        .containsExactly(b2);
    assertThat(ids(as(k, "GET", "/ops/reconciliation/differences?confidence=SUGGESTED", null)))
        .containsExactly(b1);
    assertThat(
            ids(
                as(
                    k,
                    "GET",
                    "/ops/reconciliation/differences?account=acct_b&state=NEEDS_PERSON",
                    null)))
        .containsExactly(b1);
    assertThat(ids(as(k, "GET", "/ops/reconciliation/tickets?account=acct_b", null)))
        .containsExactly(b1);
    assertThat(ids(as(k, "GET", "/ops/reconciliation/tickets", null))).hasSize(6);

    RunningApi.Answer badClass = as(k, "GET", "/ops/reconciliation/differences?class=NOPE", null);
    assertThat(badClass.status()).isEqualTo(400);
    assertThat(badClass.code()).isEqualTo("invalid_parameter");
    assertThat(as(k, "GET", "/ops/reconciliation/differences?cursor=abc", null).code())
        .isEqualTo("invalid_cursor");
    assertThat(as(k, "GET", "/ops/reconciliation/differences?limit=0", null).code())
        .isEqualTo("invalid_parameter");
    assertThat(as(k, "GET", "/ops/reconciliation/differences/424242", null).code())
        .isEqualTo("difference_not_found");
  }

  @Test
  void theSummaryCountsOpenDifferencesByClassWithAmountAndOldestAge() {
    Instant now = Instant.now();
    ReconSeed.insert(
        Row.ticket("acct_a", "AMOUNT_MISMATCH", "S1", 1000).foundAt(now.minusSeconds(7200)));
    ReconSeed.insert(
        Row.ticket("acct_a", "AMOUNT_MISMATCH", "S2", -250).foundAt(now.minusSeconds(60)));
    ReconSeed.insert(
        new Row(
            "acct_a",
            "MISSING_FROM_STATEMENT",
            "S3",
            null,
            400L,
            "CNY",
            "NONE",
            "OPEN",
            now.minusSeconds(600)));
    ReconSeed.insert(Row.ticket("acct_a", "LATE_CHARGE", "S4", 999).state("RESOLVED"));

    JsonNode s = as(RunningApi.APPROVER_KEY, "GET", "/ops/reconciliation/summary", null).json();
    assertThat(s.get("tickets").asLong()).isEqualTo(2);
    assertThat(s.get("oldestOpenAgeSeconds").asLong()).isBetween(7190L, 7300L);
    assertThat(s.get("classes")).hasSize(2);
    JsonNode amount = s.get("classes").get(0);
    assertThat(amount.get("kind").asString()).isEqualTo("AMOUNT_MISMATCH");
    assertThat(amount.get("count").asLong()).isEqualTo(2);
    assertThat(amount.get("amountMinor").asLong()).isEqualTo(1250);
    assertThat(amount.get("oldestAgeSeconds").asLong()).isBetween(7190L, 7300L);
    JsonNode missing = s.get("classes").get(1);
    assertThat(missing.get("kind").asString()).isEqualTo("MISSING_FROM_STATEMENT");
    assertThat(missing.get("count").asLong()).isEqualTo(1);
    assertThat(missing.get("amountMinor").asLong()).isEqualTo(400);
  }

  @Test
  void merchantsCannotSeeReconciliation() {
    long id = ReconSeed.insert(Row.ticket("acct_a", "AMOUNT_MISMATCH", "M1", 10));
    for (String path :
        List.of(
            "/ops/reconciliation/summary",
            "/ops/reconciliation/runs",
            "/ops/reconciliation/differences",
            "/ops/reconciliation/tickets",
            "/ops/reconciliation/differences/" + id)) {
      RunningApi.Answer merchant = as(RunningApi.MERCHANT_KEY, "GET", path, null);
      assertThat(merchant.status()).as(path).isEqualTo(403);
      assertThat(merchant.body()).doesNotContain("M1");
      assertThat(api.call("GET", path).send().status()).as(path).isEqualTo(401);
    }
    RunningApi.Answer propose =
        as(
            RunningApi.MERCHANT_KEY,
            "POST",
            "/ops/reconciliation/differences/" + id + "/commands",
            proposal("ACCEPT_DIFFERENCE"));
    assertThat(propose.status()).isEqualTo(403);
    RunningApi.Answer run =
        as(
            RunningApi.MERCHANT_KEY,
            "POST",
            "/ops/reconciliation/runs",
            "{\"account\":\"acct_a\",\"date\":\"2026-11-30\"}");
    assertThat(run.status()).isEqualTo(403);
    assertThat(ReconSeed.text("SELECT count(*) FROM recon_command")).isEqualTo("0");
    assertThat(ReconSeed.text("SELECT count(*) FROM recon_run")).isEqualTo("0");
  }

  private static List<Long> ids(RunningApi.Answer answer) {
    assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
    List<Long> ids = new ArrayList<>();
    answer.json().get("items").forEach(d -> ids.add(d.get("id").asLong()));
    return ids;
  }
}
