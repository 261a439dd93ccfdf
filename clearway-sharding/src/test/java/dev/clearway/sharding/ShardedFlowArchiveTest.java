package dev.clearway.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.refund.domain.NewRefund;
import dev.clearway.core.retention.RetentionKind;
import dev.clearway.store.Database;
import dev.clearway.store.JdbcFlowStore;
import dev.clearway.store.refund.JdbcRefundStore;
import dev.clearway.store.retention.JdbcRetentionLease;
import dev.clearway.store.retention.JdbcRetentionStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The flow archive on the sharded URL: ended flows of every shard move to the archive tables of
 * their own shard, with their history, shard by shard; a flow with a refund stays.
 */
@Tag(ShardedTestDatabase.SHARDING)
class ShardedFlowArchiveTest {

  private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");

  private final ShardedTestDatabase db = ShardedTestDatabase.get();
  private final Database database = db.database();
  private final JdbcFlowStore flows = new JdbcFlowStore(database.dataSource(), database.dialect());
  private final JdbcRefundStore refunds =
      new JdbcRefundStore(database.dataSource(), database.dialect());
  private final JdbcRetentionStore retention =
      new JdbcRetentionStore(database.dataSource(), database.dialect());

  @BeforeEach
  void clean() {
    db.truncateAll(ShardedTestDatabase.REFUND_AND_FLOW_TABLES, List.of("pay_flow_archive"));
    // Rows of the first database that keep a flow, left by other tests under ids that repeat.
    db.physical(0, "TRUNCATE TABLE late_charge_check");
    db.physical(0, "DELETE FROM manual_command WHERE state = 'PROPOSED'");
  }

  private PayFlow endedFlowOn(int shard, String name) {
    PayFlow f = SucceededFlows.create(flows, ShardedGoals.on(shard, name), 1_000L, T0);
    return f;
  }

  private long onShard(int shard, String table, String where) {
    return db.physicalCount(
        shard / 2, "SELECT count(*) FROM " + table + "_" + shard % 2 + " WHERE " + where);
  }

  @Test
  void endedFlowsMoveToTheArchiveOfTheirShardAndAFlowWithARefundStays() {
    List<PayFlow> ended = new ArrayList<>();
    for (int shard = 0; shard < 4; shard++) {
      ended.add(endedFlowOn(shard, "archive-" + shard));
    }
    PayFlow refunded = endedFlowOn(2, "refunded");
    refunds.create(
        new NewRefund(refunded.id(), 100, "return", "m1", "key-" + refunded.id()),
        new Lease("refunder", T0.plusSeconds(30)),
        T0);

    int moved = retention.removeBatch(RetentionKind.FLOW_ARCHIVE, T0.plusSeconds(60), 100);

    assertThat(moved).isEqualTo(4);
    for (int shard = 0; shard < 4; shard++) {
      long id = ended.get(shard).id();
      assertThat(onShard(shard, "pay_flow_archive", "status = 'BIZ_SUCCESS' AND id = " + id))
          .as("shard " + shard)
          .isEqualTo(1);
      assertThat(onShard(shard, "pay_flow_history_archive", "flow_id = " + id)).isEqualTo(4);
      assertThat(onShard(shard, "pay_flow_history", "flow_id = " + id)).isZero();
      assertThat(onShard(shard, "pay_flow_state", "id = " + id)).isZero();
      assertThat(onShard(shard, "pay_flow_fact", "id = " + id)).isZero();
      PayFlow archived = flows.findByGoal(ended.get(shard).goal()).get(0);
      assertThat(archived.id()).isEqualTo(id);
      assertThat(archived.status()).isEqualTo(FlowStatus.BIZ_SUCCESS);
      assertThat(archived.version()).isEqualTo(ended.get(shard).version());
      assertThat(archived.createdAt())
          .as("instants copied unshifted")
          .isEqualTo(ended.get(shard).createdAt());
      assertThat(archived.updatedAt()).isEqualTo(ended.get(shard).updatedAt());
    }
    assertThat(onShard(2, "pay_flow_fact", "id = " + refunded.id())).isEqualTo(1);
    assertThat(retention.removeBatch(RetentionKind.FLOW_ARCHIVE, T0.plusSeconds(60), 100)).isZero();
  }

  @Test
  void theRetentionLeaseRowIsInstalledSoTheRetentionRunCanStart() {
    // The migrations seed the lease's row; the installer copies it to the first database.
    assertThat(db.physicalCount(0, "SELECT count(*) FROM retention_lease WHERE name = 'retention'"))
        .isEqualTo(1);
    JdbcRetentionLease lease = new JdbcRetentionLease(database.dataSource());
    Instant now = Instant.now();
    assertThat(lease.acquire("archive-test", now.plusSeconds(30), now)).isTrue();
    lease.release("archive-test", now);
  }

  @Test
  void flowsKeptAtTheHeadOfTheOrderDoNotStopTheArchive() {
    // The oldest ended flows (lowest ids, same end time) each have a refund: kept for ever.
    for (int n = 0; n < 3; n++) {
      PayFlow kept = endedFlowOn(0, "kept-" + n);
      refunds.create(
          new NewRefund(kept.id(), 100, "return", "m1", "key-" + kept.id()),
          new Lease("refunder", T0.plusSeconds(30)),
          T0);
    }
    PayFlow free = endedFlowOn(1, "free");

    assertThat(retention.removeBatch(RetentionKind.FLOW_ARCHIVE, T0.plusSeconds(60), 2))
        .as("a batch of 2 reads past the kept flows")
        .isEqualTo(1);
    assertThat(onShard(1, "pay_flow_archive", "id = " + free.id())).isEqualTo(1);
    assertThat(onShard(0, "pay_flow_fact", "id > 0")).isEqualTo(3);
  }
}
