package dev.clearway.lab.recon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.lab.ClearwayMain;
import dev.clearway.lab.LastJson;
import dev.clearway.sharding.ShardedTestLayout;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code clearway chaos reconcile} on the sharded layout (the shipped YAML over two MariaDB
 * databases that do not exist yet, which the run creates and installs), at a small size: the
 * payments land on several shards, the statements are reconciled and repaired, and the run exits
 * clean: nothing missed, nothing found without cause, no invariant broken.
 */
@Tag(ShardedTestLayout.SHARDING)
class ShardedReconChaosTest {
  private static final int PAYMENTS = 60;

  @Test
  void theReconcileChaosRunExitsCleanOnTheShardedLayout(@TempDir Path out) throws Exception {
    ShardedTestLayout layout =
        ShardedTestLayout.fresh(
            Path.of("..", "deploy", "sharding", "clearway-mariadb.yaml"),
            "clearway_shrecon",
            false);
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    int exit =
        ClearwayMain.run(
            new String[] {
              "chaos",
              "reconcile",
              "--payments",
              String.valueOf(PAYMENTS),
              "--seed",
              "5",
              "--out",
              out.toString(),
              "--jdbc-url",
              layout.url()
            },
            new PrintStream(stdout, true, StandardCharsets.UTF_8),
            System.err);
    JsonNode json = LastJson.of(stdout);
    System.out.println(json);

    assertThat(json.get("scenario").stringValue()).isEqualTo("reconcile");
    assertThat(json.get("payments").intValue()).isEqualTo(PAYMENTS);
    assertThat(json.get("missed").intValue()).isZero();
    assertThat(json.get("falseDifferences").intValue()).isZero();
    assertThat(json.get("violations").intValue()).isZero();
    assertThat(json.get("importsRefused").intValue()).isEqualTo(2);
    assertThat(exit).isZero();
    int shardsWithPayments = 0;
    for (int shard = 0; shard < 4; shard++) {
      long rows =
          layout.physicalCount(shard / 2, "SELECT count(*) FROM pay_flow_fact_" + shard % 2);
      shardsWithPayments += rows > 0 ? 1 : 0;
    }
    assertThat(shardsWithPayments).as("shards holding payments").isGreaterThan(1);
  }
}
