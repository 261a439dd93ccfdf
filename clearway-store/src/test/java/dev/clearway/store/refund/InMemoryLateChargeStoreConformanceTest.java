package dev.clearway.store.refund;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.latecharge.domain.LateChargeCheck;
import dev.clearway.core.latecharge.domain.LateChargeStatus;
import dev.clearway.core.latecharge.domain.SuspicionSource;
import dev.clearway.core.latecharge.port.LateChargeStore;
import dev.clearway.core.latecharge.port.LateChargeStore.RescheduleWrite;
import dev.clearway.core.latecharge.port.LateChargeStore.TransitionWrite;
import dev.clearway.core.modelcheck.memory.Fencing;
import dev.clearway.core.modelcheck.memory.InMemoryLateChargeStore;
import dev.clearway.store.JdbcFlowStore;
import dev.clearway.store.latecharge.JdbcLateChargeStore;
import dev.clearway.store.testing.Outcomes;
import dev.clearway.store.testing.TestDatabase;
import java.time.Instant;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The model checker's in-memory late-charge store (in its {@code LEASE} mode, the fenced SQL) is
 * held to {@link JdbcLateChargeStore} on PostgreSQL: one check per flow, only for a flow that ended
 * unpaid; claims; transitions and reschedules by the holder, by a stale holder and after the lease
 * was released; terminal checks and illegal edges.
 */
class InMemoryLateChargeStoreConformanceTest {
  private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  private final JdbcLateChargeStore jdbc = new JdbcLateChargeStore(TestDatabase.get().dataSource());
  private final JdbcFlowStore flows = RefundFixtures.flows();
  private InMemoryLateChargeStore memory;

  @BeforeEach
  void reset() {
    RefundFixtures.reset();
    memory =
        new InMemoryLateChargeStore(
            Fencing.LEASE, InMemoryLateChargeStore.Snapshot.empty(), flows::find);
  }

  private <T> T both(String what, Function<LateChargeStore, T> op) {
    Object fromJdbc = Outcomes.of(jdbc, op);
    Object fromMemory = Outcomes.of(memory, op);
    assertThat(fromMemory).as(what).isEqualTo(fromJdbc);
    for (long id = 1; id <= 2; id++) {
      assertThat(memory.find(id)).as(what + ": check " + id).isEqualTo(jdbc.find(id));
    }
    return Outcomes.answer(fromJdbc);
  }

  private static Instant at(int seconds) {
    return T0.plusSeconds(seconds);
  }

  private static Lease lease(String token, int from) {
    return new Lease(token, at(from + 30));
  }

  private static TransitionWrite write(
      LateChargeCheck from, LateChargeStatus to, String writer, int at) {
    boolean keeps = to == LateChargeStatus.CHARGE_CONFIRMED;
    return new TransitionWrite(
        from,
        to,
        writer,
        "SUCCESS",
        to == LateChargeStatus.MANUAL ? "UNKNOWN" : null,
        to == LateChargeStatus.REFUND_REQUESTED ? 42L : null,
        keeps ? at(at + 30) : at(at),
        keeps ? writer : null,
        at(at));
  }

  private static RescheduleWrite reschedule(LateChargeCheck from, String writer, int at) {
    return new RescheduleWrite(from, writer, "UNKNOWN", "TIMEOUT", at(at + 5), at(at));
  }

  @Test
  void suspicionsClaimsAndFencedWritesAgree() {
    Instant now = T0;
    PayFlow paying = RefundFixtures.flow(now, FlowStatus.PAYING);
    PayFlow closed = RefundFixtures.flow(now, FlowStatus.CLOSED);
    both("a flow that has not ended", s -> s.suspect(paying.id(), SuspicionSource.CALLBACK, at(0)));
    LateChargeCheck check =
        both("a closed flow", s -> s.suspect(closed.id(), SuspicionSource.CALLBACK, at(0)))
            .orElseThrow()
            .check();
    both("again, by the sweep", s -> s.suspect(closed.id(), SuspicionSource.SWEEP, at(1)));
    both("by flow", s -> s.findByFlow(closed.id()));
    both("a claim", s -> s.claim(check.id(), lease("A", 2), at(2)));
    both("a claim while held", s -> s.claim(check.id(), lease("B", 3), at(3)));
    LateChargeCheck held = jdbc.find(check.id()).orElseThrow();
    both(
        "a transition by another writer",
        s -> s.transition(write(held, LateChargeStatus.CHARGE_CONFIRMED, "B", 4)));
    LateChargeCheck confirmed =
        both(
                "the holder confirms the charge",
                s -> s.transition(write(held, LateChargeStatus.CHARGE_CONFIRMED, "A", 4)))
            .orElseThrow();
    both("a stale version", s -> s.transition(write(held, LateChargeStatus.NO_CHARGE, "A", 5)));
    both("a reschedule by another writer", s -> s.reschedule(reschedule(confirmed, "B", 5)));
    both("the holder reschedules", s -> s.reschedule(reschedule(confirmed, "A", 6)));
    LateChargeCheck released = jdbc.find(check.id()).orElseThrow();
    both(
        "the released holder's transition",
        s -> s.transition(write(released, LateChargeStatus.REFUND_REQUESTED, "A", 7)));
    both("claim due too early", s -> s.claimDue(0, 10, lease("C", 8), at(8)));
    both("takeover after the lease", s -> s.claimDue(0, 10, lease("C", 40), at(40)));
    LateChargeCheck taken = jdbc.find(check.id()).orElseThrow();
    both(
        "the refund is requested",
        s -> s.transition(write(taken, LateChargeStatus.REFUND_REQUESTED, "C", 41)));
    LateChargeCheck done = jdbc.find(check.id()).orElseThrow();
    both("claim a terminal check", s -> s.claim(done.id(), lease("D", 99), at(99)));
    both("claim due skips terminal checks", s -> s.claimDue(0, 10, lease("D", 99), at(99)));
    both("an illegal edge", s -> s.transition(write(done, LateChargeStatus.MANUAL, "C", 99)));
    both("a reschedule of a terminal check", s -> s.reschedule(reschedule(done, "C", 99)));
  }

  @Test
  void manualChecksAgree() {
    PayFlow failed = RefundFixtures.flow(T0, FlowStatus.PAYING, FlowStatus.PAY_FAIL);
    LateChargeCheck check =
        both("a failed flow", s -> s.suspect(failed.id(), SuspicionSource.SWEEP, at(0)))
            .orElseThrow()
            .check();
    both("claim due", s -> s.claimDue(0, 10, lease("A", 0), at(0)));
    LateChargeCheck held = jdbc.find(check.id()).orElseThrow();
    LateChargeCheck manual =
        both("to a person", s -> s.transition(write(held, LateChargeStatus.MANUAL, "A", 1)))
            .orElseThrow();
    both(
        "the released holder",
        s -> s.transition(write(manual, LateChargeStatus.NO_CHARGE, "A", 2)));
    both("claim due of a MANUAL check", s -> s.claimDue(0, 10, lease("B", 3), at(3)));
    LateChargeCheck again = jdbc.find(check.id()).orElseThrow();
    both(
        "no charge after all", s -> s.transition(write(again, LateChargeStatus.NO_CHARGE, "B", 4)));
  }
}
