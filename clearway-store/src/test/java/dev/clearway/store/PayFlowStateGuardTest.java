package dev.clearway.store;

import static dev.clearway.store.StoreFixtures.created;
import static dev.clearway.store.StoreFixtures.exec;
import static dev.clearway.store.StoreFixtures.now;
import static dev.clearway.store.StoreFixtures.payment;
import static dev.clearway.store.StoreFixtures.reload;
import static dev.clearway.store.StoreFixtures.store;
import static dev.clearway.store.StoreFixtures.walk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.store.testing.TestDatabase;
import java.sql.SQLException;
import java.time.Instant;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The guards of the two tables behind the pay_flow view (V31) hold against raw SQL that writes the
 * tables themselves: the state's transition table, the facts' freeze and the live flag that
 * uk_live_attempt reads.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class PayFlowStateGuardTest {
  private static final String CHECK_VIOLATION = "23514";

  @BeforeEach
  void reset() {
    TestDatabase.get().reset();
  }

  private static void assertRejected(ThrowingCallable sql, String message) {
    assertThatThrownBy(sql)
        .isInstanceOf(SQLException.class)
        .hasMessageContaining(message)
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(CHECK_VIOLATION));
  }

  @Test
  void theStateTableRefusesIllegalEdgesTerminalChangesAndDeletes() {
    Instant now = now();
    PayFlow waitPay = created(now);
    assertRejected(
        () ->
            exec(
                "UPDATE pay_flow_state SET status = 'PAYED', version = version + 1 WHERE id = ?",
                waitPay.id()),
        "illegal transition WAIT_PAY -> PAYED");
    PayFlow done =
        walk(created(now), now, FlowStatus.PAYING, FlowStatus.PAYED, FlowStatus.BIZ_SUCCESS);
    assertRejected(
        () ->
            exec(
                "UPDATE pay_flow_state SET status = 'REFUNDING', version = version + 1"
                    + " WHERE id = ?",
                done.id()),
        "terminal status BIZ_SUCCESS cannot change to REFUNDING");
    assertRejected(
        () -> exec("DELETE FROM pay_flow_state WHERE id = ?", done.id()), "never deleted");
    assertRejected(
        () -> exec("DELETE FROM pay_flow_fact WHERE id = ?", waitPay.id()), "never deleted");
    assertThat(reload(waitPay)).isEqualTo(waitPay);
    assertThat(reload(done)).isEqualTo(done);
  }

  @Test
  void aChangeWithoutStatusChangeIsAcceptedWithoutTheTransitionCheck() throws Exception {
    PayFlow f = created(now());
    assertThat(exec("UPDATE pay_flow_state SET retry_count = 3 WHERE id = ?", f.id())).isEqualTo(1);
    assertThat(reload(f).retryCount()).isEqualTo(3);
  }

  @Test
  void theFactsAreFrozenInTheirOwnTable() {
    PayFlow f = created(now());
    assertRejected(
        () -> exec("UPDATE pay_flow_fact SET amount = amount + 1 WHERE id = ?", f.id()),
        "identity and amount are frozen");
    assertRejected(
        () -> exec("UPDATE pay_flow_state SET id = id + 1000 WHERE id = ?", f.id()),
        "identity and amount are frozen");
    assertThat(reload(f)).isEqualTo(f);
  }

  @Test
  void anAttemptStopsBeingLiveOnlyByEndingUnpaidAndNeverBecomesLiveAgain() throws Exception {
    Instant now = now();
    PayFlow live = created(now);
    assertRejected(
        () -> exec("UPDATE pay_flow_fact SET live = false WHERE id = ?", live.id()),
        "stops being live only by ending unpaid");

    PayFlow closed = walk(live, now, FlowStatus.CLOSED);
    assertThat(liveFlag(closed.id())).isFalse();
    // a new attempt of the goal is possible now, and the closed one cannot come back to life
    PayFlow second = store().createAttempt(payment(live.goal(), now), lease(now), now).flow();
    assertThat(second.attemptNo()).isEqualTo(2);
    assertRejected(
        () -> exec("UPDATE pay_flow_fact SET live = true WHERE id = ?", closed.id()),
        "stops being live only by ending unpaid");
  }

  private static dev.clearway.core.flow.port.FlowStore.Lease lease(Instant now) {
    return StoreFixtures.lease("w/1", now);
  }

  private static boolean liveFlag(long id) throws SQLException {
    return StoreFixtures.count("SELECT count(*) FROM pay_flow_fact WHERE live AND id = " + id) == 1;
  }
}
