package dev.clearway.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.review.CommandKind;
import dev.clearway.store.Database;
import dev.clearway.store.JdbcFlowStore;
import dev.clearway.store.JdbcReviewStore;
import dev.clearway.store.review.ManualCommand;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A person's command about a flow on each shard, on the sharded URL: the command lives on the first
 * database, the flow on its shard. The approval applies the effect once, on the flow's shard, with
 * its history row and event there; an approval whose decision was lost after the effect committed
 * is recorded APPLIED by the next approval, which finds the effect by the command's id and applies
 * nothing twice.
 */
@Tag(ShardedTestDatabase.SHARDING)
class ShardedManualCommandTest {

  private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");

  private final ShardedTestDatabase db = ShardedTestDatabase.get();
  private final Database database = db.database();
  private final JdbcFlowStore store = new JdbcFlowStore(database.dataSource(), database.dialect());
  private final JdbcReviewStore review =
      new JdbcReviewStore(database.dataSource(), database.dialect());

  @BeforeEach
  void clean() {
    db.truncate(ShardedTestDatabase.FLOW_TABLES);
  }

  /** A flow of {@code shard} moved to PAYED. */
  private PayFlow paidFlowOn(int shard) {
    NewPayment payment =
        new NewPayment(
            ShardedGoals.on(shard, "command-" + shard),
            1_999L,
            "EUR",
            T0.plus(Duration.ofHours(1)));
    return FlowPaths.along(store, payment, T0, FlowStatus.PAYING, FlowStatus.PAYED);
  }

  private long propose(PayFlow f) {
    JdbcReviewStore.Result proposed =
        review.propose(
            f.id(), CommandKind.CONFIRM_BIZ_SUCCESS, "alice", "T-1", "checked", "mail", T0);
    return ((JdbcReviewStore.Result.Done) proposed).command().id();
  }

  private ManualCommand approve(long commandId) {
    JdbcReviewStore.Result approved = review.approve(commandId, "bob", T0.plusSeconds(5));
    assertThat(approved).isInstanceOf(JdbcReviewStore.Result.Done.class);
    return ((JdbcReviewStore.Result.Done) approved).command();
  }

  private long historyOfCommand(int shard, long commandId) {
    return db.physicalCount(
        shard / 2,
        "SELECT count(*) FROM pay_flow_history_"
            + shard % 2
            + " WHERE request_id = 'cmd-"
            + commandId
            + "'");
  }

  @Test
  void anApprovalMovesTheFlowOnItsShardOnce() {
    for (int shard = 0; shard < 4; shard++) {
      PayFlow f = paidFlowOn(shard);
      long commandId = propose(f);

      assertThat(approve(commandId).state()).isEqualTo("APPLIED");

      assertThat(store.find(f.id()).orElseThrow().status()).isEqualTo(FlowStatus.BIZ_SUCCESS);
      assertThat(historyOfCommand(shard, commandId)).isEqualTo(1);
      assertThat(db.eventsOnShard(shard, f.id(), "PaymentSucceeded")).isEqualTo(1);
    }
  }

  @Test
  void aDecisionLostAfterTheEffectIsRecordedByTheNextApprovalAndCannotBeRejected() {
    for (int shard = 0; shard < 4; shard++) {
      PayFlow f = paidFlowOn(shard);
      long commandId = propose(f);
      approve(commandId);
      // The decision's commit lost: the command is PROPOSED again while its effect is in.
      db.physical(
          0,
          "UPDATE manual_command SET state = 'PROPOSED', approver_id = NULL, result = NULL,"
              + " decided_at = NULL WHERE id = "
              + commandId);

      JdbcReviewStore.Result rejected = review.reject(commandId, "carol", "too late", T0);
      assertThat(rejected)
          .as("shard " + shard + ": a command whose effect is in cannot be rejected")
          .isInstanceOf(JdbcReviewStore.Result.Refused.class);
      assertThat(((JdbcReviewStore.Result.Refused) rejected).code())
          .isEqualTo("command_already_applied");

      ManualCommand again = approve(commandId);

      assertThat(again.state()).as("shard " + shard).isEqualTo("APPLIED");
      assertThat(historyOfCommand(shard, commandId)).isEqualTo(1);
      assertThat(store.find(f.id()).orElseThrow().version()).isEqualTo(f.version() + 1);
    }
  }
}
