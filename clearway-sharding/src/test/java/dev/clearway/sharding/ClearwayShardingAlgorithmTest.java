package dev.clearway.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.refund.domain.RefundNumbers;
import dev.clearway.store.MysqlDialect;
import dev.clearway.store.ShardBits;
import dev.clearway.store.SqlDialects;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.shardingsphere.sharding.api.sharding.complex.ComplexKeysShardingValue;
import org.junit.jupiter.api.Test;

/** The shard a statement's values name, without a database. */
class ClearwayShardingAlgorithmTest {

  private static final List<String> DATABASES = List.of("ds_0", "ds_1");
  private static final List<String> TABLES = List.of("payment_order_0", "payment_order_1");

  private static ClearwayShardingAlgorithm algorithm(String level) {
    Properties props = new Properties();
    props.setProperty("level", level);
    props.setProperty("databases", "2");
    props.setProperty("tables-per-database", "2");
    ClearwayShardingAlgorithm a = new ClearwayShardingAlgorithm();
    a.init(props);
    return a;
  }

  private static Collection<String> route(
      String level, List<String> targets, Map<String, Collection<Comparable<?>>> values) {
    return algorithm(level)
        .doSharding(targets, new ComplexKeysShardingValue<>("payment_order", values, Map.of()));
  }

  @Test
  void anOrderNumberRoutesToTheShardOfItsFlowId() {
    for (int shard = 0; shard < 4; shard++) {
      String trade = OrderNumbers.derive(42, ((long) shard << 48) | 9).tradeOrderNo();
      Map<String, Collection<Comparable<?>>> v = Map.of("trade_order_no", List.of(trade));
      assertThat(route("database", DATABASES, v)).containsExactly("ds_" + shard / 2);
      assertThat(route("table", TABLES, v)).containsExactly("payment_order_" + shard % 2);
      Map<String, Collection<Comparable<?>>> refund =
          Map.of(
              "refund_no",
              List.of(OrderNumbers.derive(42, ((long) shard << 48) | 9).refundOrderNo()));
      assertThat(route("table", TABLES, refund)).containsExactly("payment_order_" + shard % 2);
      Map<String, Collection<Comparable<?>>> refundOrder =
          Map.of("refund_no", List.of(RefundNumbers.of(trade, 3)));
      assertThat(route("database", DATABASES, refundOrder)).containsExactly("ds_" + shard / 2);
      assertThat(route("table", TABLES, refundOrder)).containsExactly("payment_order_" + shard % 2);
      Map<String, Collection<Comparable<?>>> event =
          Map.of("aggregate_id", List.of(((long) shard << 48) | 9));
      assertThat(route("table", TABLES, event)).containsExactly("payment_order_" + shard % 2);
    }
  }

  @Test
  void anIdRoutesByItsShardBitsBeforeAnyOtherColumn() {
    long id = (3L << 48) | 77;
    Map<String, Collection<Comparable<?>>> v =
        Map.of("id", List.of(id), "merchant_id", List.of("m"), "user_id", List.of(1L));
    assertThat(route("database", DATABASES, v)).containsExactly("ds_1");
    assertThat(route("table", TABLES, v)).containsExactly("payment_order_1");
    assertThat(ShardBits.of(ShardKeys.firstId(2))).isEqualTo(2);
  }

  @Test
  void theOwnerAndTheIdempotencyKeyRouteByTheirHashAndNothingBroadcasts() {
    int owner = ShardKeys.ofOwner("m", 5, 4);
    assertThat(route("table", TABLES, Map.of("merchant_id", List.of("m"), "user_id", List.of(5L))))
        .containsExactly("payment_order_" + owner % 2);
    int key = ShardKeys.ofIdempotencyKey("m", "k", 4);
    assertThat(
            route(
                "database",
                DATABASES,
                Map.of("merchant_id", List.of("m"), "idem_key", List.of("k"))))
        .containsExactly("ds_" + key / 2);
    assertThat(route("database", DATABASES, Map.of("status", List.of("READY"))))
        .containsExactlyElementsOf(DATABASES);
  }

  @Test
  void aNumberWithoutShardIsRefused() {
    assertThatThrownBy(() -> route("table", TABLES, Map.of("trade_order_no", List.of("legacy-42"))))
        .hasMessageContaining("carries no shard");
  }

  @Test
  void anIdOrANumberPastTheLayoutGoesToTheFirstShardWhereNoRowCarriesIt() {
    long past = (37L << 48) | 5;
    String trade = OrderNumbers.derive(1, past).tradeOrderNo();
    List<Map<String, Collection<Comparable<?>>>> values =
        List.of(
            Map.of("id", List.of(9L << 48)),
            Map.of("flow_id", List.of(past)),
            Map.of("trade_order_no", List.of(trade)),
            Map.of("refund_no", List.of("r_" + trade)),
            Map.of("refund_no", List.of(RefundNumbers.of(trade, 1))));
    for (Map<String, Collection<Comparable<?>>> v : values) {
      assertThat(route("database", DATABASES, v)).as("%s", v).containsExactly("ds_0");
      assertThat(route("table", TABLES, v)).as("%s", v).containsExactly("payment_order_0");
    }
    long onThree = (3L << 48) | 5;
    assertThat(route("database", DATABASES, Map.of("id", List.of(onThree, past))))
        .containsExactly("ds_1", "ds_0");
  }

  @Test
  void anAttemptIdInheritsItsFlowsShardAndTheShardingUrlIsTheMysqlFamily() {
    String trade = OrderNumbers.derive(7, (2L << 48) | 5).tradeOrderNo();
    assertThat(ShardBits.of(ShardBits.inherit(trade, 123))).isEqualTo(2);
    assertThat(ShardBits.inherit("t_not_ours!", 123)).isEqualTo(123);
    assertThat(SqlDialects.forUrl("jdbc:shardingsphere:absolutepath:/x.yaml"))
        .isInstanceOf(MysqlDialect.class);
    assertThat(SqlDialects.forUrl("jdbc:shardingsphere:absolutepath:/x.yaml").sharded()).isTrue();
    assertThat(SqlDialects.forUrl("jdbc:mariadb://h/db").sharded()).isFalse();
    assertThat(SqlDialects.isSharded("jdbc:mariadb://h/db")).isFalse();
  }
}
