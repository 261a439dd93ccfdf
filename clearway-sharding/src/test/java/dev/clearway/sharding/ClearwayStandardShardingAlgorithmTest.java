package dev.clearway.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.flow.domain.OrderNumbers;
import java.util.List;
import java.util.Properties;
import org.apache.shardingsphere.infra.datanode.DataNodeInfo;
import org.apache.shardingsphere.sharding.api.sharding.standard.PreciseShardingValue;
import org.junit.jupiter.api.Test;

/** The one-column algorithm names the same shard as the complex one, without a database. */
class ClearwayStandardShardingAlgorithmTest {

  private static final List<String> DATABASES = List.of("ds_0", "ds_1");
  private static final List<String> TABLES = List.of("pay_flow_history_0", "pay_flow_history_1");

  private static ClearwayStandardShardingAlgorithm algorithm(String level) {
    Properties props = new Properties();
    props.setProperty("level", level);
    props.setProperty("databases", "2");
    props.setProperty("tables-per-database", "2");
    ClearwayStandardShardingAlgorithm a = new ClearwayStandardShardingAlgorithm();
    a.init(props);
    return a;
  }

  private static String route(String level, List<String> targets, String column, Comparable<?> v) {
    return algorithm(level)
        .doSharding(
            targets,
            new PreciseShardingValue<>(
                "pay_flow_history", column, new DataNodeInfo("pay_flow_history_", 1, '0'), v));
  }

  @Test
  void anIdAndAnOrderNumberRouteToTheShardTheComplexAlgorithmNames() {
    for (int shard = 0; shard < 4; shard++) {
      long flowId = ((long) shard << 48) | 9;
      assertThat(route("database", DATABASES, "flow_id", flowId)).isEqualTo("ds_" + shard / 2);
      assertThat(route("table", TABLES, "FLOW_ID", flowId))
          .isEqualTo("pay_flow_history_" + shard % 2);
      String trade = OrderNumbers.derive(42, flowId).tradeOrderNo();
      assertThat(route("database", DATABASES, "trade_order_no", trade))
          .isEqualTo("ds_" + shard / 2);
      assertThat(route("table", TABLES, "trade_order_no", trade))
          .isEqualTo("pay_flow_history_" + shard % 2);
    }
  }

  @Test
  void aNullIsRefusedNotSentToOneShard() {
    assertThatThrownBy(() -> route("table", TABLES, "flow_id", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("names no single shard");
  }

  @Test
  void anIdPastTheLayoutGoesToTheFirstShardAsWithTheComplexAlgorithm() {
    // No physical table hands out an id with these bits: on the first shard it finds no row.
    assertThat(route("table", TABLES, "flow_id", 9L << 48)).isEqualTo("pay_flow_history_0");
    assertThat(route("database", DATABASES, "flow_id", 9L << 48)).isEqualTo("ds_0");
    assertThat(route("table", TABLES, "trade_order_no", "t_7_" + Long.toString(37L << 48, 36)))
        .endsWith("_0");
  }
}
