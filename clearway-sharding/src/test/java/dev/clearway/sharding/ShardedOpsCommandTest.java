package dev.clearway.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.engine.CompensationWorker;
import dev.clearway.core.channel.port.ChannelStores;
import dev.clearway.core.channel.port.CompensationStore.Compensation;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.refund.domain.NewRefund;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refund.port.RefundStore.CreateOutcome;
import dev.clearway.core.review.OpsCommandKind;
import dev.clearway.store.Database;
import dev.clearway.store.JdbcFlowStore;
import dev.clearway.store.JdbcOpsCommandStore;
import dev.clearway.store.JdbcOpsCommandStore.Proposal;
import dev.clearway.store.JdbcOpsCommandStore.Result;
import dev.clearway.store.channel.JdbcChannelStores;
import dev.clearway.store.refund.JdbcRefundStore;
import dev.clearway.store.review.OpsCommand;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A person's commands about refund orders, attempts and compensations on the sharded URL: the
 * command lives on the first database, its target on its payment's shard. The approval commits the
 * effect on the target's shard first, tagged with the command's id, and the decision on the first
 * database after; a decision lost in between is recorded by the next approval, which finds the
 * effect by its tag and applies nothing twice, and a reject of such a command is refused.
 */
@Tag(ShardedTestDatabase.SHARDING)
class ShardedOpsCommandTest {

  private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");
  private static final Pattern SHARDED =
      Pattern.compile(
          "\\b(refund_order|refund_order_history|outbox_event|payment_attempt"
              + "|payment_attempt_history|provider_evidence|recovery_task|attempt_compensation"
              + "|pay_flow_fact)_(\\d)\\b");

  private final ShardedTestDatabase db = ShardedTestDatabase.get();
  private final Database database = db.database();
  private final JdbcFlowStore flows = new JdbcFlowStore(database.dataSource(), database.dialect());
  private final JdbcRefundStore refunds =
      new JdbcRefundStore(database.dataSource(), database.dialect());
  private final ChannelStores stores =
      JdbcChannelStores.create(database.dataSource(), database.dialect());
  private final JdbcOpsCommandStore commands =
      new JdbcOpsCommandStore(database.dataSource(), database.dialect());

  @BeforeEach
  void clean() {
    db.truncateAll(ShardedTestDatabase.CHANNEL_TABLES, ShardedTestDatabase.REFUND_AND_FLOW_TABLES);
    db.physical(0, "DELETE FROM manual_audit");
    db.physical(0, "DELETE FROM manual_command");
    CardAccount.open(stores, "acct_1");
  }

  // ---- targets ---------------------------------------------------------------------------------

  /** A refund of a paid payment on {@code shard}, ABNORMAL: it waits for a person. */
  private RefundOrder abnormalRefundOn(int shard) {
    PayFlow f = SucceededFlows.create(flows, ShardedGoals.on(shard, "ops-" + shard), 1_999L, T0);
    CreateOutcome created =
        refunds.create(
            new NewRefund(f.id(), 500, "return", f.goal().merchant(), "key-" + f.id()),
            new Lease("refunder", T0.plusSeconds(30)),
            T0);
    RefundOrder r = ((CreateOutcome.Created) created).refund();
    return move(move(r, RefundStatus.PROCESSING), RefundStatus.ABNORMAL);
  }

  private RefundOrder move(RefundOrder from, RefundStatus to) {
    return RefundMoves.move(refunds, from, to, T0);
  }

  /** An attempt on {@code shard} whose recovery a person holds (its task MANUAL). */
  private Attempt attemptHandedToAPersonOn(int shard) {
    String trade = OrderNumbers.derive(7, ((long) shard << 48) | (200 + shard)).tradeOrderNo();
    Attempt a = OpenAttempts.first(stores, trade, 500, T0);
    db.physical(
        shard / 2,
        "UPDATE recovery_task_"
            + shard % 2
            + " SET status = 'MANUAL', lease_owner = NULL, lease_until = NULL,"
            + " last_error = 'QUERY_EXHAUSTED' WHERE attempt_id = "
            + a.id());
    return a;
  }

  /** An attempt on {@code shard} whose compensation (a late charge to refund) a person holds. */
  private Attempt compensationHandedToAPersonOn(int shard) {
    Attempt a = attemptHandedToAPersonOn(shard);
    assertThat(
            stores
                .compensations()
                .openCompensation(
                    Compensation.opening(
                        a.id(), a.tradeOrderNo(), CompensationWorker.refundNo(a), 500, "LATE"),
                    T0))
        .isTrue();
    db.physical(
        shard / 2,
        "UPDATE attempt_compensation_"
            + shard % 2
            + " SET status = 'MANUAL' WHERE attempt_id = "
            + a.id());
    return a;
  }

  // ---- commands --------------------------------------------------------------------------------

  private long propose(OpsCommandKind kind, long target) {
    Result proposed =
        commands.propose(new Proposal(kind, target, "alice", "T-1", "checked", "psp re_9"), T0);
    assertThat(proposed).isInstanceOf(Result.Done.class);
    return ((Result.Done) proposed).command().id();
  }

  private OpsCommand approve(long commandId) {
    Result approved = commands.approve(commandId, "bob", T0.plusSeconds(5));
    assertThat(approved).as("approval of " + commandId).isInstanceOf(Result.Done.class);
    return ((Result.Done) approved).command();
  }

  /** The decision's commit lost: the command is PROPOSED again while its effect is in. */
  private void loseDecision(long commandId) {
    db.physical(
        0,
        "UPDATE manual_command SET state = 'PROPOSED', approver_id = NULL, result = NULL,"
            + " decided_at = NULL WHERE id = "
            + commandId);
  }

  private void assertRejectRefusedAsApplied(long commandId, int shard) {
    Result rejected = commands.reject(commandId, "carol", "too late", T0);
    assertThat(rejected)
        .as("shard " + shard + ": a command whose effect is in cannot be rejected")
        .isInstanceOf(Result.Refused.class);
    assertThat(((Result.Refused) rejected).code()).isEqualTo("command_already_applied");
  }

  private long onShard(int shard, String table, String where) {
    return db.physicalCount(
        shard / 2, "SELECT count(*) FROM " + table + "_" + shard % 2 + " WHERE " + where);
  }

  /**
   * Every statement of an approval reaches one physical table: the command's and its audit's on the
   * first database, every other the target's shard.
   */
  private static void assertRouted(List<SqlLog.Routed> log, int shard) {
    assertThat(log).isNotEmpty();
    for (SqlLog.Routed statement : log) {
      assertThat(statement.actual()).as(statement.logic()).hasSize(1);
      String actual = statement.actual().get(0);
      int ds = Integer.parseInt(actual.substring(3, 4));
      if (statement.logic().contains("manual_")) {
        assertThat(ds).as(actual).isZero();
        continue;
      }
      Matcher m = SHARDED.matcher(actual);
      assertThat(m.find(actual.indexOf(":::"))).as("a sharded table in %s", actual).isTrue();
      assertThat(ds * 2 + Integer.parseInt(m.group(2))).as(actual).isEqualTo(shard);
    }
  }

  // ---- tests -----------------------------------------------------------------------------------

  @Test
  void aRefundCommandMovesTheRefundOnItsShardOnceEvenWhenItsDecisionIsLost() {
    for (int shard = 0; shard < 4; shard++) {
      RefundOrder r = abnormalRefundOn(shard);
      long commandId = propose(OpsCommandKind.CONFIRM_REFUNDED, r.id());
      OpsCommand[] approved = new OpsCommand[1];
      List<SqlLog.Routed> log = SqlLog.capture(() -> approved[0] = approve(commandId));

      assertThat(approved[0].state()).isEqualTo("APPLIED");
      assertThat(approved[0].result()).isEqualTo("SUCCESS");
      assertRouted(log, shard);
      String tagged = "refund_id = " + r.id() + " AND request_id = 'cmd-" + commandId + "'";
      assertThat(onShard(shard, "refund_order_history", tagged)).isEqualTo(1);
      String event =
          "aggregate_id = "
              + r.flowId()
              + " AND event_type = 'OrderRefundSucceeded'"
              + " AND JSON_VALUE(payload, '$.refundId') = "
              + r.id();
      assertThat(onShard(shard, "outbox_event", event)).isEqualTo(1);

      loseDecision(commandId);
      assertRejectRefusedAsApplied(commandId, shard);
      OpsCommand again = approve(commandId);

      assertThat(again.state()).as("shard " + shard).isEqualTo("APPLIED");
      assertThat(again.result()).isEqualTo("SUCCESS");
      assertThat(onShard(shard, "refund_order_history", tagged)).isEqualTo(1);
      assertThat(onShard(shard, "outbox_event", event)).isEqualTo(1);
      RefundOrder now = refunds.find(r.id()).orElseThrow();
      assertThat(now.status()).isEqualTo(RefundStatus.SUCCESS);
      assertThat(now.version()).isEqualTo(r.version() + 1);
    }
  }

  @Test
  void anAttemptCommandSettlesTheAttemptOnItsShardOnceEvenWhenItsDecisionIsLost() {
    for (int shard = 0; shard < 4; shard++) {
      Attempt a = attemptHandedToAPersonOn(shard);
      long commandId = propose(OpsCommandKind.CONFIRM_ATTEMPT_SUCCEEDED, a.id());
      OpsCommand[] approved = new OpsCommand[1];
      List<SqlLog.Routed> log = SqlLog.capture(() -> approved[0] = approve(commandId));

      assertThat(approved[0].result()).isEqualTo("SUCCEEDED");
      assertRouted(log, shard);
      String tagged = "attempt_id = " + a.id() + " AND request_id = 'cmd-" + commandId + "'";
      assertThat(onShard(shard, "provider_evidence", tagged)).isEqualTo(1);

      loseDecision(commandId);
      assertRejectRefusedAsApplied(commandId, shard);
      OpsCommand again = approve(commandId);

      assertThat(again.state()).as("shard " + shard).isEqualTo("APPLIED");
      assertThat(again.result()).isEqualTo("SUCCEEDED");
      assertThat(onShard(shard, "provider_evidence", tagged)).isEqualTo(1);
      assertThat(onShard(shard, "payment_attempt_history", "attempt_id = " + a.id()))
          .as("one MANUAL move")
          .isEqualTo(
              1
                  + onShard(
                      shard,
                      "payment_attempt_history",
                      "source <> 'MANUAL' AND attempt_id = " + a.id()));
      assertThat(
              onShard(
                  shard,
                  "payment_attempt",
                  "status = 'SUCCEEDED' AND version = "
                      + (a.version() + 1)
                      + " AND id = "
                      + a.id()))
          .isEqualTo(1);
    }
  }

  @Test
  void aCompensationCommandSettlesItOnItsShardOnceEvenWhenItsDecisionIsLost() {
    for (int shard = 0; shard < 4; shard++) {
      Attempt a = compensationHandedToAPersonOn(shard);
      long version =
          db.physicalCount(
              shard / 2,
              "SELECT version FROM attempt_compensation_"
                  + shard % 2
                  + " WHERE attempt_id = "
                  + a.id());
      long commandId = propose(OpsCommandKind.KEEP_CHARGE, a.id());
      List<SqlLog.Routed> log = SqlLog.capture(() -> approve(commandId));
      assertRouted(log, shard);

      loseDecision(commandId);
      assertRejectRefusedAsApplied(commandId, shard);
      OpsCommand again = approve(commandId);

      assertThat(again.result()).as("shard " + shard).isEqualTo("KEPT");
      assertThat(
              onShard(
                  shard,
                  "attempt_compensation",
                  "status = 'KEPT' AND version = " + (version + 1) + " AND attempt_id = " + a.id()))
          .as("moved once")
          .isEqualTo(1);
    }
  }

  @Test
  void aCompensationHandedBackIsFoundAppliedAfterItsWorkerRewroteItsLastError() {
    int shard = 3;
    Attempt a = compensationHandedToAPersonOn(shard);
    long commandId = propose(OpsCommandKind.REFUND_CHARGE, a.id());
    approve(commandId);
    loseDecision(commandId);

    // The worker takes the compensation handed back and records a failed try: its last_error is
    // the channel's error now, no longer the command's note.
    List<Compensation> claimed =
        stores.compensations().claimCompensations(10, Duration.ofSeconds(30), T0.plusSeconds(6));
    assertThat(claimed).extracting(Compensation::attemptId).containsExactly(a.id());
    assertThat(
            stores
                .compensations()
                .updateCompensation(
                    claimed.get(0),
                    "PENDING",
                    "PSP_TIMEOUT",
                    T0.plusSeconds(60),
                    T0.plusSeconds(7)))
        .isTrue();
    assertThat(
            onShard(
                shard,
                "attempt_compensation",
                "last_error = 'PSP_TIMEOUT' AND tries = 1 AND attempt_id = " + a.id()))
        .isEqualTo(1);

    assertRejectRefusedAsApplied(commandId, shard);
    OpsCommand again = approve(commandId);
    assertThat(again.result()).isEqualTo("PENDING");
  }

  @Test
  void aTargetMovedByOthersIsStaleAndItsCommandCanBeRejected() {
    for (int shard = 0; shard < 4; shard++) {
      RefundOrder r = abnormalRefundOn(shard);
      long commandId = propose(OpsCommandKind.CONFIRM_REFUNDED, r.id());
      move(r, RefundStatus.FAIL);

      Result approved = commands.approve(commandId, "bob", T0.plusSeconds(5));
      assertThat(approved).isInstanceOf(Result.Refused.class);
      assertThat(((Result.Refused) approved).code()).isEqualTo("stale_target");
      assertThat(commands.reject(commandId, "bob", "moved", T0)).isInstanceOf(Result.Done.class);
      assertThat(refunds.find(r.id()).orElseThrow().status()).isEqualTo(RefundStatus.FAIL);
    }
  }
}
