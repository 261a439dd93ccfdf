package dev.clearway.store.refund;

import static dev.clearway.store.refund.RefundFixtures.bizSuccess;
import static dev.clearway.store.refund.RefundFixtures.count;
import static dev.clearway.store.refund.RefundFixtures.created;
import static dev.clearway.store.refund.RefundFixtures.move;
import static dev.clearway.store.refund.RefundFixtures.now;
import static dev.clearway.store.refund.RefundFixtures.path;
import static dev.clearway.store.refund.RefundFixtures.refunds;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.review.OpsCommandKind;
import dev.clearway.store.JdbcOpsCommandStore;
import dev.clearway.store.JdbcOpsCommandStore.Proposal;
import dev.clearway.store.JdbcOpsCommandStore.Result;
import dev.clearway.store.review.OpsCommand;
import dev.clearway.store.testing.TestDatabase;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A person's commands on an ABNORMAL refund, through the store on either database: proposed by one
 * person, applied only when another approves, the refund moved by compare-and-set with its history
 * row and, when it ends, its outbox event, all in the approval's transaction.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class OpsRefundCommandTest {
  private final JdbcOpsCommandStore commands =
      new JdbcOpsCommandStore(TestDatabase.get().dataSource(), TestDatabase.get().dialect());

  @BeforeEach
  void reset() {
    RefundFixtures.reset();
    TestDatabase.get().truncate("manual_audit", "manual_command");
  }

  private static RefundOrder abnormal(Instant now) {
    RefundOrder r = created(bizSuccess(now), 500, "k-" + System.nanoTime(), now);
    return move(move(r, RefundStatus.PROCESSING, now), RefundStatus.ABNORMAL, now);
  }

  private OpsCommand propose(OpsCommandKind kind, RefundOrder r, Instant now) {
    Result proposed =
        commands.propose(new Proposal(kind, r.id(), "alice", "T-1", "checked", "psp-ref-9"), now);
    assertThat(proposed).isInstanceOf(Result.Done.class);
    return ((Result.Done) proposed).command();
  }

  @Test
  void aConfirmationByAnotherPersonEndsTheRefundWithItsHistoryAndEvent() {
    Instant now = now();
    RefundOrder r = abnormal(now);
    OpsCommand cmd = propose(OpsCommandKind.CONFIRM_REFUNDED, r, now);

    assertThat(commands.approve(cmd.id(), "alice", now))
        .isEqualTo(
            new Result.Refused(
                "same_person", "a command must be decided by another person than its proposer"));
    assertThat(refunds().find(r.id()).orElseThrow().status()).isEqualTo(RefundStatus.ABNORMAL);

    Result approved = commands.approve(cmd.id(), "bob", now.plusSeconds(1));

    assertThat(approved).isInstanceOf(Result.Done.class);
    assertThat(((Result.Done) approved).command().state()).isEqualTo("APPLIED");
    RefundOrder done = refunds().find(r.id()).orElseThrow();
    assertThat(done.status()).isEqualTo(RefundStatus.SUCCESS);
    assertThat(done.version()).isEqualTo(r.version() + 1);
    assertThat(done.leaseOwner()).isNull();
    assertThat(path(r.id())).last().isEqualTo("ABNORMAL->SUCCESS@" + done.version());
    assertThat(
            count(
                "SELECT count(*) FROM refund_order_history WHERE refund_id = ?"
                    + " AND trigger_source = 'MANUAL' AND request_id = ?"
                    + " AND result_class = 'MANUAL_COMMAND'",
                r.id(),
                "cmd-" + cmd.id()))
        .isEqualTo(1);
    assertThat(
            count(
                "SELECT count(*) FROM outbox_event WHERE event_id = ?"
                    + " AND event_type = 'OrderRefundSucceeded'",
                "refund-" + r.id() + "-v" + done.version()))
        .isEqualTo(1);
    assertThat(count("SELECT count(*) FROM manual_audit WHERE command_id = ?", cmd.id()))
        .isEqualTo(2);
  }

  @Test
  void aRetryKeepsTheRefundAbnormalDueNowWithoutAnEvent() {
    Instant now = now();
    RefundOrder r = abnormal(now);
    long events = count("SELECT count(*) FROM outbox_event");
    OpsCommand cmd = propose(OpsCommandKind.RETRY_REFUND, r, now);

    Instant later = now.plusSeconds(5);
    assertThat(commands.approve(cmd.id(), "bob", later)).isInstanceOf(Result.Done.class);

    RefundOrder retried = refunds().find(r.id()).orElseThrow();
    assertThat(retried.status()).isEqualTo(RefundStatus.ABNORMAL);
    assertThat(retried.version()).isEqualTo(r.version() + 1);
    assertThat(retried.nextRetryTime()).isEqualTo(later);
    assertThat(path(r.id())).last().isEqualTo("ABNORMAL->ABNORMAL@" + retried.version());
    assertThat(count("SELECT count(*) FROM outbox_event")).isEqualTo(events);
  }

  @Test
  void anApprovalOfARefundThatMovedIsRefusedAndWritesNothing() {
    Instant now = now();
    RefundOrder r = abnormal(now);
    OpsCommand close = propose(OpsCommandKind.CLOSE_REFUND, r, now);
    // the refund moves under the open proposal: the engine learns it succeeded after all
    move(refunds().find(r.id()).orElseThrow(), RefundStatus.SUCCESS, now);
    long history = count("SELECT count(*) FROM refund_order_history WHERE refund_id = ?", r.id());

    Result stale = commands.approve(close.id(), "bob", now);

    assertThat(stale).isInstanceOf(Result.Refused.class);
    assertThat(((Result.Refused) stale).code()).isEqualTo("stale_target");
    assertThat(refunds().find(r.id()).orElseThrow().status()).isEqualTo(RefundStatus.SUCCESS);
    assertThat(count("SELECT count(*) FROM refund_order_history WHERE refund_id = ?", r.id()))
        .isEqualTo(history);
    assertThat(count("SELECT count(*) FROM manual_command WHERE state = 'PROPOSED'")).isEqualTo(1);
  }
}
