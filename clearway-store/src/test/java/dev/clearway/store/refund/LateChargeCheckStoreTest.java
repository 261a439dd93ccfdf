package dev.clearway.store.refund;

import static dev.clearway.store.refund.RefundFixtures.count;
import static dev.clearway.store.refund.RefundFixtures.exec;
import static dev.clearway.store.refund.RefundFixtures.flow;
import static dev.clearway.store.refund.RefundFixtures.lease;
import static dev.clearway.store.refund.RefundFixtures.now;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.latecharge.domain.LateChargeCheck;
import dev.clearway.core.latecharge.domain.LateChargeStatus;
import dev.clearway.core.latecharge.domain.LateChargeTransitions;
import dev.clearway.core.latecharge.domain.SuspicionSource;
import dev.clearway.core.latecharge.port.LateChargeStore.RescheduleWrite;
import dev.clearway.core.latecharge.port.LateChargeStore.Suspected;
import dev.clearway.core.latecharge.port.LateChargeStore.TransitionWrite;
import dev.clearway.store.latecharge.JdbcLateChargeOps;
import dev.clearway.store.latecharge.JdbcLateChargeStore;
import dev.clearway.store.refund.RefundFixtures.RawSqlException;
import dev.clearway.store.testing.TestDatabase;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * late_charge_check on PostgreSQL and the MySQL family: one check per flow, only for flows that
 * ended unpaid; every state write fenced by the writer's lease; and the guard trigger holds the
 * transition table, the frozen identity and the terminal states against raw SQL.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class LateChargeCheckStoreTest {
  private static final String CHECK_VIOLATION = "23514";

  private final JdbcLateChargeStore store =
      new JdbcLateChargeStore(TestDatabase.get().dataSource(), TestDatabase.get().dialect());

  @BeforeEach
  void reset() {
    RefundFixtures.reset();
  }

  private LateChargeCheck suspected(Instant now) {
    PayFlow failed = flow(now, FlowStatus.PAYING, FlowStatus.PAY_FAIL);
    return store.suspect(failed.id(), SuspicionSource.CALLBACK, now).orElseThrow().check();
  }

  private LateChargeCheck claimed(Lease lease, Instant now) {
    LateChargeCheck check = suspected(now);
    assertThat(store.claim(check.id(), lease, now)).isTrue();
    return store.find(check.id()).orElseThrow();
  }

  private static TransitionWrite write(
      LateChargeCheck from, LateChargeStatus to, String writer, Instant now) {
    return new TransitionWrite(
        from,
        to,
        writer,
        "SUCCESS",
        null,
        to == LateChargeStatus.REFUND_REQUESTED ? 42L : null,
        now,
        to == LateChargeStatus.CHARGE_CONFIRMED ? writer : null,
        now);
  }

  @Test
  void theConsoleCountsTheChecksByStatus() {
    Instant now = now();
    suspected(now);
    suspected(now);
    JdbcLateChargeOps ops = new JdbcLateChargeOps(TestDatabase.get().dataSource());

    assertThat(ops.openByStatus()).containsExactly(Map.entry("PENDING", 2L));
    assertThat(ops.countByStatus()).containsExactly(Map.entry("PENDING", 2L));
    assertThat(ops.manual(Long.MAX_VALUE, 10)).isEmpty();
    assertThat(ops.sweepCursors()).isEmpty();
  }

  @Test
  void aFlowHasOneCheckAndOnlyWhenItEndedUnpaid() {
    Instant now = now();
    PayFlow closed = flow(now, FlowStatus.CLOSED);
    PayFlow paying = flow(now, FlowStatus.PAYING);

    Suspected first = store.suspect(closed.id(), SuspicionSource.CALLBACK, now).orElseThrow();
    Suspected again = store.suspect(closed.id(), SuspicionSource.SWEEP, now).orElseThrow();

    assertThat(first.created()).isTrue();
    assertThat(again.created()).isFalse();
    assertThat(again.check()).isEqualTo(first.check());
    assertThat(first.check().status()).isEqualTo(LateChargeStatus.PENDING);
    assertThat(first.check().source()).isEqualTo(SuspicionSource.CALLBACK);
    assertThat(first.check().tradeOrderNo()).isEqualTo(closed.tradeOrderNo());
    assertThat(first.check().nextCheckTime()).isEqualTo(now);
    assertThat(store.suspect(paying.id(), SuspicionSource.SWEEP, now)).isEmpty();
    assertThat(count("SELECT count(*) FROM late_charge_check")).isEqualTo(1);
  }

  @Test
  void everyStateWriteIsFencedByTheWritersLease() {
    Instant now = now();
    Lease first = lease("first", now);
    LateChargeCheck held = claimed(first, now);
    // The first lease expires and a second worker claims the check.
    Instant later = first.until().plusMillis(1);
    Lease second = lease("second", later);
    assertThat(store.claim(held.id(), second, later)).isTrue();
    LateChargeCheck taken = store.find(held.id()).orElseThrow();

    LateChargeCheck stale = held; // what the first worker read, version and status unchanged
    assertThat(store.transition(write(stale, LateChargeStatus.CHARGE_CONFIRMED, "first", later)))
        .isEmpty();
    assertThat(
            store.reschedule(
                new RescheduleWrite(stale, "first", "UNKNOWN", "TIMEOUT", later, later)))
        .isFalse();
    assertThat(store.find(held.id())).contains(taken);

    Optional<LateChargeCheck> moved =
        store.transition(write(taken, LateChargeStatus.CHARGE_CONFIRMED, "second", later));
    assertThat(moved).isPresent();
    assertThat(moved.get().version()).isEqualTo(taken.version() + 1);
    assertThat(moved.get().leaseOwner()).isEqualTo("second");
    assertThat(
            store.transition(
                write(moved.get(), LateChargeStatus.REFUND_REQUESTED, "second", later)))
        .get()
        .extracting(LateChargeCheck::refundId, LateChargeCheck::leaseOwner)
        .containsExactly(42L, null);
  }

  @Test
  void aClaimTakesOnlyAFreeOrExpiredLeaseAndNeverATerminalCheck() {
    Instant now = now();
    Lease first = lease("first", now);
    LateChargeCheck held = claimed(first, now);

    assertThat(store.claim(held.id(), lease("other", now), now)).isFalse();
    assertThat(store.claimDue(0, 10, lease("scanner", now), now)).isEmpty();
    assertThat(store.claimDue(0, 10, lease("scanner", first.until()), first.until()))
        .containsExactly(held.id());

    LateChargeCheck scanned = store.find(held.id()).orElseThrow();
    LateChargeCheck ended =
        store
            .transition(write(scanned, LateChargeStatus.NO_CHARGE, "scanner", first.until()))
            .orElseThrow();
    Instant muchLater = first.until().plusSeconds(3_600);
    assertThat(store.claim(ended.id(), lease("late", muchLater), muchLater)).isFalse();
    assertThat(store.claimDue(0, 10, lease("late", muchLater), muchLater)).isEmpty();
  }

  // ---- the guard trigger ---------------------------------------------------------------------

  private static void rawMove(LateChargeCheck c, LateChargeStatus to) {
    exec(
        "UPDATE late_charge_check SET status = ?, version = version + 1,"
            + " refund_id = COALESCE(refund_id, 7) WHERE id = ?",
        to.name(),
        c.id());
  }

  @ParameterizedTest
  @EnumSource(LateChargeStatus.class)
  void theTriggerAcceptsExactlyTheEdgesOfTheTable(LateChargeStatus from) {
    Instant now = now();
    for (LateChargeStatus to : LateChargeStatus.values()) {
      if (to == from) {
        continue;
      }
      LateChargeCheck c = inVia(from, now);
      if (LateChargeTransitions.isLegal(from, to)) {
        rawMove(c, to);
        assertThat(store.find(c.id()).orElseThrow().status()).isEqualTo(to);
      } else {
        assertThatThrownBy(() -> rawMove(c, to))
            .as("%s -> %s", from, to)
            .isInstanceOf(RawSqlException.class)
            .hasMessageStartingWith(CHECK_VIOLATION)
            .hasMessageContaining(from.isTerminal() ? "terminal status" : "illegal transition");
      }
    }
  }

  /** A check in {@code status}, reached by legal raw moves only. */
  private LateChargeCheck inVia(LateChargeStatus status, Instant now) {
    LateChargeCheck c = suspected(now);
    switch (status) {
      case PENDING -> {}
      case MANUAL, NO_CHARGE, NOT_APPLICABLE, CHARGE_CONFIRMED -> rawMove(c, status);
      case REFUND_REQUESTED -> {
        rawMove(c, LateChargeStatus.CHARGE_CONFIRMED);
        rawMove(c, LateChargeStatus.REFUND_REQUESTED);
      }
    }
    return store.find(c.id()).orElseThrow();
  }

  @Test
  void aTransitionBumpsTheVersionIdentityIsFrozenAndRowsAreNeverDeleted() {
    LateChargeCheck c = suspected(now());

    assertThatThrownBy(
            () -> exec("UPDATE late_charge_check SET status = 'MANUAL' WHERE id = ?", c.id()))
        .hasMessageStartingWith(CHECK_VIOLATION)
        .hasMessageContaining("version");
    for (String set :
        new String[] {
          "flow_id = flow_id + 1",
          "trade_order_no = CONCAT(trade_order_no, 'x')",
          "source = 'SWEEP'",
          "created_at = created_at - INTERVAL '1' HOUR"
        }) {
      assertThatThrownBy(
              () -> exec("UPDATE late_charge_check SET " + set + " WHERE id = ?", c.id()))
          .as(set)
          .hasMessageStartingWith(CHECK_VIOLATION);
    }
    assertThatThrownBy(() -> exec("DELETE FROM late_charge_check WHERE id = ?", c.id()))
        .hasMessageContaining("never deleted");
    LateChargeCheck withRefund = inVia(LateChargeStatus.REFUND_REQUESTED, now());
    assertThat(withRefund.refundId()).isEqualTo(7L);
    assertThat(count("SELECT count(*) FROM late_charge_check")).isEqualTo(2);
  }

  @Test
  void aRefundRequestedCheckNamesItsRefund() {
    LateChargeCheck c = inVia(LateChargeStatus.CHARGE_CONFIRMED, now());

    assertThatThrownBy(
            () ->
                exec(
                    "UPDATE late_charge_check SET status = 'REFUND_REQUESTED',"
                        + " version = version + 1, refund_id = NULL WHERE id = ?",
                    c.id()))
        .hasMessageStartingWith(CHECK_VIOLATION);
  }
}
