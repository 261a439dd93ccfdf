package dev.clearway.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.lab.ClearwayMain;
import dev.clearway.lab.LastJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A small run of {@code clearway bench sharded --json} on the machine's MariaDB (profile {@code
 * mariadb}): every statement of the payment path reaches one shard, the JSON has every figure, and
 * the run's databases are gone afterwards.
 */
@Tag("sharding")
class ShardedBenchSmokeTest {

  @Test
  void everyPaymentStatementReachesOneShard() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int exit =
        ClearwayMain.run(
            new String[] {
              "bench",
              "sharded",
              "--payments",
              "200",
              "--concurrency",
              "4",
              "--windows",
              "2",
              "--layout",
              "../deploy/sharding/clearway-mariadb.yaml",
              "--json"
            },
            new PrintStream(out, true, StandardCharsets.UTF_8),
            System.err);
    JsonNode json = LastJson.of(out);

    assertThat(exit).isZero();
    List<String> names = LastJson.names(json);
    assertThat(names)
        .contains(
            "unshardedPaymentsPerSec",
            "shardedPaymentsPerSec",
            "shardingOverhead",
            "statementsPerPayment",
            "shardsPerStatement",
            "broadcasts",
            "unshardedCommitsPerPayment",
            "shardedCommitsPerPayment");
    assertThat(json.get("shardedConverged").intValue()).isEqualTo(200);
    assertThat(json.get("unshardedConverged").intValue()).isEqualTo(200);
    assertThat(json.get("statementsPerPayment").doubleValue()).isGreaterThan(1.0);
    assertThat(json.get("shardsPerStatement").doubleValue()).isEqualTo(1.0);
    assertThat(json.get("broadcasts").longValue()).isZero();
    // Every physical statement of the window belongs to a counted logical statement.
    assertThat(json.get("physicalStatementsPerPayment").doubleValue())
        .isGreaterThanOrEqualTo(json.get("statementsPerPayment").doubleValue());
    assertThat(json.get("shardingOverhead").doubleValue())
        .isEqualTo(
            json.get("unshardedPaymentsPerSec").doubleValue()
                / json.get("shardedPaymentsPerSec").doubleValue(),
            org.assertj.core.data.Offset.offset(0.01));
    assertThat(benchDatabasesLeft()).isZero();
  }

  private static long benchDatabasesLeft() throws Exception {
    try (Connection c =
            DriverManager.getConnection("jdbc:mariadb://127.0.0.1:3306/mysql?user=root");
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name LIKE"
                    + " 'clearway\\_bench\\_"
                    + ProcessHandle.current().pid()
                    + "\\_%'")) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
