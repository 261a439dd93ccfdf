package dev.clearway.lab.recon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.lab.CommandRun;
import dev.clearway.store.testing.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code clearway chaos reconcile} at a small size: every difference the simulated PSPs inject is
 * one only their statements show, and reconciliation must find each of them as its class, find
 * nothing else, refuse the corrupted statements, and leave no invariant broken after the repairs.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class ReconChaosTest {

  @Test
  void everyInjectedDifferenceIsFoundAsItsClassAndNothingElse(@TempDir Path out) throws Exception {
    CommandRun run =
        CommandRun.onOwnDatabase(
            "clearway_it_recon",
            "chaos",
            "reconcile",
            "--payments",
            "200",
            "--seed",
            "5",
            "--out",
            out.toString());
    JsonNode json = run.lastJson();
    System.out.println(json);

    assertThat(json.get("scenario").stringValue()).isEqualTo("reconcile");
    assertThat(json.get("payments").intValue()).isEqualTo(200);
    assertThat(json.get("missed").intValue()).isZero();
    assertThat(json.get("falseDifferences").intValue()).isZero();
    assertThat(json.get("violations").intValue()).isZero();
    assertThat(run.exit()).isZero();
    // Every class was injected at least once and found as often as injected.
    JsonNode injected = json.get("injected");
    for (String kind :
        List.of(
            "LATE_CHARGE",
            "REFUND_SETTLED_LOCAL_PENDING",
            "FEE_MISMATCH",
            "UNKNOWN_STATEMENT_LINE",
            "ADJUSTMENT_TO_REVIEW")) {
      assertThat(injected.path(kind).asLong()).as(kind + " injected").isPositive();
    }
    long lateFound =
        json.get("found").path("LATE_CHARGE").asLong()
            + json.get("found").path("CHARGED_LOCAL_PAYING").asLong();
    assertThat(lateFound).isEqualTo(injected.get("LATE_CHARGE").asLong());
    assertThat(json.get("found").path("FEE_MISMATCH").asLong())
        .isEqualTo(injected.get("FEE_MISMATCH").asLong());
    assertThat(json.get("importsRefused").intValue()).isEqualTo(2);
    assertThat(json.get("autoRepaired").longValue())
        .isEqualTo(lateFound + injected.get("REFUND_SETTLED_LOCAL_PENDING").asLong());
    assertThat(json.get("tickets").longValue()).isPositive();
    // Card refunds went through, some listed only by Stripe's refund id and the payment's metadata,
    // and none of them was a difference (falseDifferences above is zero).
    assertThat(json.get("pspRefunds").path("card").asLong()).isPositive();
    assertThat(json.get("pspRefunds").path("cardWithoutOurNumber").asLong()).isPositive();
    assertThat(json.get("found").has("UNKNOWN_STATEMENT_LINE")).isTrue();
    assertThat(json.get("found").path("UNKNOWN_STATEMENT_LINE").asLong())
        .isEqualTo(injected.get("UNKNOWN_STATEMENT_LINE").asLong());
    assertThat(json.get("found").has("REFUND_NOT_AT_PSP")).isFalse();
    assertThat(Files.readAllLines(out.resolve("differences.csv")))
        .hasSize(1 + (int) sum(json.get("found")));
    assertThat(out.resolve("flows.csv")).exists();
    assertThat(out.resolve("psp-ledger.csv")).exists();
  }

  private static long sum(JsonNode counts) {
    long n = 0;
    for (JsonNode v : counts.values()) {
      n += v.asLong();
    }
    return n;
  }
}
