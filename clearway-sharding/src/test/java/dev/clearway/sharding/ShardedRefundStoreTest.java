package dev.clearway.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.refund.domain.NewRefund;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refund.port.RefundStore.CreateOutcome;
import dev.clearway.store.Database;
import dev.clearway.store.JdbcFlowStore;
import dev.clearway.store.refund.JdbcRefundStore;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Refund orders on the sharded URL: a paid payment's refund is created under its flow's row lock,
 * moved to SUCCESS with its history and its outbox event, all on the payment's shard; only the
 * lookup of the merchant's idempotency key (which names no payment) reads every shard.
 */
@Tag(ShardedTestDatabase.SHARDING)
class ShardedRefundStoreTest {

  private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");
  private static final Pattern PHYSICAL = Pattern.compile("\\b([a-z_]+)_(\\d)\\b");

  private final ShardedTestDatabase db = ShardedTestDatabase.get();
  private final Database database = db.database();
  private final JdbcFlowStore flows = new JdbcFlowStore(database.dataSource(), database.dialect());
  private final JdbcRefundStore refunds =
      new JdbcRefundStore(database.dataSource(), database.dialect());

  @BeforeEach
  void clean() {
    db.truncate(ShardedTestDatabase.REFUND_AND_FLOW_TABLES);
  }

  private PayFlow paidFlowOn(int shard) {
    long user = 1;
    while (ShardKeys.ofOwner("m1", user, 4) != shard) {
      user++;
    }
    GoalKey goal = new GoalKey("m1", user, "renew", "refund-" + shard);
    return SucceededFlows.create(flows, goal, 1_999L, T0);
  }

  private RefundOrder move(RefundOrder from, RefundStatus to) {
    return RefundMoves.move(refunds, from, to, T0);
  }

  @Test
  void aRefundsLifeStaysOnItsPaymentsShard() {
    for (int shard = 0; shard < 4; shard++) {
      PayFlow flow = paidFlowOn(shard);
      RefundOrder[] done = new RefundOrder[1];
      List<SqlLog.Routed> log =
          SqlLog.capture(
              () -> {
                CreateOutcome created =
                    refunds.create(
                        new NewRefund(flow.id(), 500, "return", "m1", "key-" + flow.id()),
                        new Lease("refunder", T0.plusSeconds(30)),
                        T0);
                RefundOrder r = ((CreateOutcome.Created) created).refund();
                done[0] = move(move(r, RefundStatus.PROCESSING), RefundStatus.SUCCESS);
                return refunds.find(r.id()).orElseThrow();
              });
      RefundOrder refund = done[0];
      assertThat(refund.status()).isEqualTo(RefundStatus.SUCCESS);
      assertThat(refund.id() >>> 48).as("the refund id carries its shard").isEqualTo(shard);
      for (SqlLog.Routed statement : log) {
        if (statement.logic().contains("idem_key = ?")) {
          // The key the merchant sent names no payment: looked up on every shard.
          assertThat(String.join(" ", statement.actual()))
              .as(statement.logic())
              .contains("ds_0 ", "ds_1 ", "refund_order_0 ", "refund_order_1 ");
          continue;
        }
        assertThat(statement.actual()).as(statement.logic()).hasSize(1);
        String route = statement.actual().get(0);
        Matcher m = PHYSICAL.matcher(route);
        assertThat(m.find(route.indexOf(":::"))).as(route).isTrue();
        int reached = Integer.parseInt(route.substring(3, 4)) * 2 + Integer.parseInt(m.group(2));
        assertThat(reached).as(route).isEqualTo(shard);
      }
      int ds = shard / 2;
      int t = shard % 2;
      assertThat(
              db.physicalCount(
                  ds,
                  "SELECT count(*) FROM refund_order_history_"
                      + t
                      + " WHERE refund_id = "
                      + refund.id()))
          .isEqualTo(3);
      assertThat(
              db.physicalCount(
                  ds,
                  "SELECT count(*) FROM outbox_event_"
                      + t
                      + " WHERE aggregate_id = "
                      + flow.id()
                      + " AND event_id LIKE 'refund-%'"
                      + " AND JSON_VALUE(payload, '$.refundId') = "
                      + refund.id()))
          .as("the refund's event, on its payment's shard")
          .isEqualTo(1);
    }
  }
}
