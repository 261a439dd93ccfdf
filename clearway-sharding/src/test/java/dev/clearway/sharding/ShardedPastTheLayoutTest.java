package dev.clearway.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.port.ChannelStores;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.refund.domain.RefundNumbers;
import dev.clearway.store.Database;
import dev.clearway.store.JdbcFlowStore;
import dev.clearway.store.channel.JdbcChannelStores;
import dev.clearway.store.reconciliation.LocalSide;
import dev.clearway.store.refund.JdbcRefundStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * An id or an order number shaped like ours but naming a shard past the layout (bits 37 on a
 * four-shard layout), as a path parameter, a callback or a statement line may bring it: every
 * lookup answers "no such row", every update changes nothing, and no physical table gains a row.
 */
@Tag(ShardedTestDatabase.SHARDING)
class ShardedPastTheLayoutTest {
  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
  private static final long LOW = (1L << ShardKeys.SHIFT) - 1;

  private final ShardedTestDatabase db = ShardedTestDatabase.get();
  private final Database database = db.database();
  private final JdbcFlowStore flows = new JdbcFlowStore(database.dataSource(), database.dialect());
  private final JdbcRefundStore refunds =
      new JdbcRefundStore(database.dataSource(), database.dialect());
  private final ChannelStores channel =
      JdbcChannelStores.create(database.dataSource(), database.dialect());
  private final LocalSide locals =
      LocalSide.of(database.dataSource(), database.dialect(), "wallet");

  @BeforeEach
  void clean() {
    db.truncate(
        List.of(
            "refund_order_history",
            "refund_order",
            "payment_attempt",
            "payment_order",
            "pay_flow_history",
            "outbox_event",
            "pay_flow_state",
            "pay_flow_fact"));
  }

  /** The rows of every physical flow table of both databases, as one list of counts. */
  private List<Long> rowCounts() {
    List<Long> counts = new ArrayList<>();
    for (int d = 0; d < 2; d++) {
      for (String table :
          List.of("pay_flow_fact", "pay_flow_state", "pay_flow_history", "refund_order")) {
        for (int t = 0; t < 2; t++) {
          counts.add(db.physicalCount(d, "SELECT count(*) FROM " + table + "_" + t));
        }
      }
    }
    return counts;
  }

  @Test
  void anIdOrNumberPastTheLayoutFindsNoRowAndWritesNothing() {
    List<PayFlow> paid = new ArrayList<>();
    for (int shard = 0; shard < 4; shard++) {
      paid.add(SucceededFlows.create(flows, ShardedGoals.on(shard, "past-" + shard), 1_250, T0));
    }
    List<Long> before = rowCounts();
    for (PayFlow real : paid) {
      // The same low bits as a real flow's id, with shard bits 37.
      long past = (37L << ShardKeys.SHIFT) | (real.id() & LOW);
      String trade = OrderNumbers.derive(real.goal().userId(), past).tradeOrderNo();
      assertThat(flows.find(past)).isEmpty();
      assertThat(flows.findByOrderNo(trade)).isEmpty();
      assertThat(flows.requestCancel(past, T0)).isFalse();
      assertThat(flows.freeze(past, "ops", "past the layout", T0)).isFalse();
      assertThat(refunds.find(past)).isEmpty();
      assertThat(refunds.findByFlow(past, 0, 10)).isEmpty();
      assertThat(channel.attempts().attempt(past)).isEmpty();
      assertThat(channel.attempts().attempts(trade)).isEmpty();
      assertThat(channel.orders().order(trade)).isEmpty();
      assertThat(locals.byTradeOrderNo(trade)).isEmpty();
      assertThat(locals.byRefundOrderNo("r_" + trade)).isEmpty();
      assertThat(locals.byRefundOrderNo(RefundNumbers.of(trade, 1))).isEmpty();
      assertThat(locals.refundsOfPayment(trade)).isEmpty();
      // The real flow is untouched and still found by its own id.
      assertThat(flows.find(real.id()).map(PayFlow::status)).contains(real.status());
    }
    assertThat(rowCounts()).isEqualTo(before);
  }

  @Test
  void aNumberOfAnotherFormFindsNoRowWhereACallbackOrAMerchantMayBringIt() {
    SucceededFlows.create(flows, ShardedGoals.on(1, "other-form"), 1_250, T0);
    List<Long> before = rowCounts();
    // A PSP's callback or webhook for an order created outside Clearway, or a merchant's request
    // naming one: not derived from a flow id, so it names no shard and no row.
    for (String number : List.of("legacy_42", "T-foreign-1", "t_only")) {
      assertThat(flows.findByOrderNo(number)).isEmpty();
      assertThat(channel.attempts().attempts(number)).isEmpty();
      assertThat(channel.orders().order(number)).isEmpty();
    }
    assertThat(rowCounts()).isEqualTo(before);
  }
}
