package dev.clearway.lab.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.sharding.ShardKeys;
import dev.clearway.sharding.ShardedTestLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chaos run on the sharded configuration: the shipped layout (two MariaDB databases, two tables
 * each) on two databases that do not exist yet, which the run creates and installs; 150 payments at
 * fault rate 0.3 through ShardingSphere-JDBC converge with no violation, every physical shard holds
 * payments with their history and events, and the CSV files hold every shard's flows.
 */
@Tag(ShardedTestLayout.SHARDING)
class ShardedChaosTest {
  private static final int PAYMENTS = 150;
  private static final int SHARDS = 4;
  private static final List<String> PER_PAYMENT =
      List.of("pay_flow_fact", "pay_flow_state", "pay_flow_history", "outbox_event");

  @TempDir static Path out;
  static ShardedTestLayout layout;
  static ChaosRun.Report report;

  @BeforeAll
  static void run() {
    layout =
        ShardedTestLayout.fresh(
            Path.of("..", "deploy", "sharding", "clearway-mariadb.yaml"),
            "clearway_shchaos",
            false);
    ChaosOptions options = new ChaosOptions(PAYMENTS, 20261203L, 0.3, 16, out, layout.url(), 300);
    report = new ChaosRun(options, System.err).run();
  }

  @Test
  void everyFlowConvergesWithoutViolations() {
    Verdict v = report.verdict();
    assertThat(v.violations()).allSatisfy((k, n) -> assertThat(n).as(k).isZero());
    assertThat(v.converged()).isEqualTo(PAYMENTS);
    assertThat(v.byStatus().values().stream().mapToInt(Integer::intValue).sum())
        .isEqualTo(PAYMENTS);
    assertThat(v.byStatus()).containsKeys("BIZ_SUCCESS", "REFUNDED");
    assertThat(v.passed()).isTrue();
  }

  @Test
  void everyPhysicalShardHoldsPaymentsAndTheyAddUp() {
    for (String table : PER_PAYMENT) {
      long total = 0;
      for (int shard = 0; shard < SHARDS; shard++) {
        long rows =
            layout.physicalCount(shard / 2, "SELECT count(*) FROM " + table + "_" + shard % 2);
        assertThat(rows).as(table + " on shard " + shard).isPositive();
        total += rows;
      }
      if (table.equals("pay_flow_fact") || table.equals("pay_flow_state")) {
        assertThat(total).as(table + " over the shards").isEqualTo(PAYMENTS);
      }
    }
  }

  @Test
  void eachFlowLivesOnTheShardItsIdNames() {
    for (int shard = 0; shard < SHARDS; shard++) {
      String table = "pay_flow_fact_" + shard % 2;
      long elsewhere =
          layout.physicalCount(
              shard / 2,
              "SELECT count(*) FROM "
                  + table
                  + " WHERE id < "
                  + ShardKeys.firstId(shard)
                  + " OR id >= "
                  + ShardKeys.firstId(shard + 1));
      assertThat(elsewhere).as("flows with another shard's id in " + table).isZero();
    }
  }

  @Test
  void theCsvFilesHoldEveryShardsFlows() throws IOException {
    List<String> lines = Files.readAllLines(out.resolve("flows.csv"));
    assertThat(lines).hasSize(PAYMENTS + 1);
    Map<Integer, Integer> perShard = new TreeMap<>();
    for (String line : lines.subList(1, lines.size())) {
      long flowId = Long.parseLong(line.substring(0, line.indexOf(',')));
      perShard.merge(ShardKeys.ofId(flowId), 1, Integer::sum);
    }
    assertThat(perShard.keySet()).containsExactly(0, 1, 2, 3);
    assertThat(Files.readAllLines(out.resolve("history.csv")).size() - 1)
        .isGreaterThanOrEqualTo(2 * PAYMENTS);
  }
}
