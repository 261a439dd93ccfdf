package dev.clearway.store.channel;

import static dev.clearway.store.channel.ChannelStoreFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.review.OpsCommandKind;
import dev.clearway.store.JdbcOpsCommandStore;
import dev.clearway.store.JdbcOpsCommandStore.Proposal;
import dev.clearway.store.JdbcOpsCommandStore.Result;
import dev.clearway.store.testing.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A person's commands on attempts and compensations ({@link ManualChannelEffects}), proposed and
 * approved through the store on either database: each leaves the rows a recorded observation would,
 * in the approval's transaction.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class OpsChannelCommandTest {
  private final ChannelStoreFixture fx = new ChannelStoreFixture();
  private final JdbcOpsCommandStore commands =
      new JdbcOpsCommandStore(TestDatabase.get().dataSource(), TestDatabase.get().dialect());

  @BeforeEach
  void clean() {
    fx.clean();
    TestDatabase.get().truncate("manual_audit", "manual_command");
  }

  /** An attempt whose recovery a person holds (task MANUAL with {@code error}). */
  private Attempt handedToAPerson(String trade, String error) {
    Attempt a = fx.newAttempt(trade);
    fx.execute(
        "UPDATE recovery_task SET status = 'MANUAL', lease_owner = NULL, lease_until = NULL,"
            + " last_error = '"
            + error
            + "' WHERE attempt_id = "
            + a.id());
    return a;
  }

  /** A failed attempt charged all the same, its compensation waiting for a person. */
  private Attempt chargedAfterFailure(String trade) {
    Attempt a = fx.newAttempt(trade);
    fx.execute(
        "UPDATE payment_attempt SET status = 'FAILED', result_certainty = 'DEFINITE_FAILURE',"
            + " version = version + 1 WHERE id = "
            + a.id());
    fx.execute(
        "INSERT INTO attempt_compensation (attempt_id, trade_order_no, refund_no, amount, status,"
            + " reason, last_error, due_at, created_at, updated_at) VALUES ("
            + a.id()
            + ", '"
            + trade
            + "', 'CR"
            + a.id()
            + "', 500, 'MANUAL', 'CHARGED_AFTER_FAILURE', 'REFUND_ABNORMAL',"
            + " '2026-12-01 00:00:00', '2026-12-01 00:00:00', '2026-12-01 00:00:00')");
    return a;
  }

  private Result proposeAndApprove(OpsCommandKind kind, long target, Long amount) {
    Result proposed =
        commands.propose(
            new Proposal(kind, target, "alice", "T-1", "checked", "psp ref re_9", amount), T0);
    assertThat(proposed).isInstanceOf(Result.Done.class);
    return commands.approve(((Result.Done) proposed).command().id(), "bob", T0.plusSeconds(1));
  }

  @Test
  void anAttemptNobodyCouldLearnIsSettledFromEvidence() {
    Attempt a = handedToAPerson("T_U", "QUERY_EXHAUSTED");

    Result approved = proposeAndApprove(OpsCommandKind.CONFIRM_ATTEMPT_SUCCEEDED, a.id(), null);

    assertThat(approved).isInstanceOf(Result.Done.class);
    assertThat(((Result.Done) approved).command().result()).isEqualTo("SUCCEEDED");
    long id = a.id();
    assertThat(fx.text("SELECT status FROM payment_attempt WHERE id = " + id))
        .isEqualTo("SUCCEEDED");
    assertThat(fx.count("SELECT version FROM payment_attempt WHERE id = " + id))
        .isEqualTo(a.version() + 1);
    assertThat(fx.text("SELECT status FROM recovery_task WHERE attempt_id = " + id))
        .isEqualTo("RESOLVED");
    assertThat(
            fx.text(
                "SELECT provider_object_id FROM provider_evidence"
                    + " WHERE source = 'MANUAL' AND attempt_id = "
                    + id))
        .isEqualTo("psp ref re_9");
    assertThat(
            fx.count(
                "SELECT count(*) FROM payment_attempt_history WHERE source = 'MANUAL'"
                    + " AND to_status = 'SUCCEEDED' AND attempt_id = "
                    + id))
        .isEqualTo(1);
    assertThat(
            fx.count(
                "SELECT count(*) FROM outbox_event WHERE event_type = 'PaymentAttemptSucceeded'"))
        .isEqualTo(1);
  }

  @Test
  void aMismatchedChargeRefusedByAPersonOpensAPendingCompensationOfTheChargedAmount() {
    Attempt a = handedToAPerson("T_M", "AMOUNT_MISMATCH");

    Result approved = proposeAndApprove(OpsCommandKind.REFUND_MISMATCHED_CHARGE, a.id(), 700L);

    assertThat(approved).isInstanceOf(Result.Done.class);
    assertThat(fx.text("SELECT status FROM payment_attempt WHERE id = " + a.id()))
        .isEqualTo("FAILED");
    assertThat(
            fx.text(
                "SELECT status FROM attempt_compensation WHERE amount = 700 AND attempt_id = "
                    + a.id()))
        .isEqualTo("PENDING");
  }

  @Test
  void aCompensationIsRefundedKeptOrHandedToFinance() {
    long kept = chargedAfterFailure("T_K").id();
    long finance = chargedAfterFailure("T_F").id();
    long refunded = chargedAfterFailure("T_R").id();

    assertThat(proposeAndApprove(OpsCommandKind.KEEP_CHARGE, kept, null))
        .isInstanceOf(Result.Done.class);
    assertThat(proposeAndApprove(OpsCommandKind.HAND_TO_FINANCE, finance, null))
        .isInstanceOf(Result.Done.class);
    assertThat(proposeAndApprove(OpsCommandKind.REFUND_CHARGE, refunded, null))
        .isInstanceOf(Result.Done.class);

    String status = "SELECT status FROM attempt_compensation WHERE attempt_id = ";
    assertThat(fx.text(status + kept)).isEqualTo("KEPT");
    assertThat(fx.text(status + finance)).isEqualTo("FINANCE");
    assertThat(fx.text(status + refunded)).isEqualTo("PENDING");
    assertThat(
            fx.count(
                "SELECT count(*) FROM outbox_event"
                    + " WHERE event_type = 'DuplicateChargeSettledByPerson'"))
        .isEqualTo(2);
    Result again =
        commands.propose(
            new Proposal(OpsCommandKind.REFUND_CHARGE, kept, "alice", "T-2", "again", "x"), T0);
    assertThat(again).isInstanceOf(Result.Refused.class);
    assertThat(((Result.Refused) again).code()).isEqualTo("compensation_settled");
  }
}
