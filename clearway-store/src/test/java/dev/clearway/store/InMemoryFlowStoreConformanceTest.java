package dev.clearway.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.domain.FlowStatus;
import dev.clearway.core.domain.GoalKey;
import dev.clearway.core.domain.NewPayment;
import dev.clearway.core.domain.OrderNumbers;
import dev.clearway.core.domain.PayFlow;
import dev.clearway.core.domain.ReviewState;
import dev.clearway.core.domain.TriggerSource;
import dev.clearway.core.modelcheck.memory.Fencing;
import dev.clearway.core.modelcheck.memory.InMemoryFlowStore;
import dev.clearway.core.port.FlowStore;
import dev.clearway.core.port.FlowStore.HistoryNote;
import dev.clearway.core.port.FlowStore.Lease;
import dev.clearway.core.port.FlowStore.RescheduleWrite;
import dev.clearway.core.port.FlowStore.TransitionWrite;
import dev.clearway.store.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The model checker's in-memory flow store (in its {@code NONE} mode, today's SQL) is held to
 * {@link JdbcFlowStore} on PostgreSQL: the same calls, with stale versions and stale leases, give
 * the same answers and leave the same rows.
 */
class InMemoryFlowStoreConformanceTest {
  private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
  private static final GoalKey GOAL = new GoalKey(41, "renew", "conformance-1");
  private static final GoalKey OTHER = new GoalKey(42, "renew", "conformance-2");

  private final JdbcFlowStore jdbc = TestDatabase.get().store();
  private InMemoryFlowStore memory;

  @BeforeEach
  void reset() {
    TestDatabase.get().reset();
    memory = new InMemoryFlowStore(Fencing.NONE, InMemoryFlowStore.Snapshot.empty());
  }

  /** Runs {@code op} on both stores; the answers (or exception types) and all rows must agree. */
  private <T> T both(String what, Function<FlowStore, T> op) {
    Object fromJdbc = outcome(jdbc, op);
    Object fromMemory = outcome(memory, op);
    assertThat(fromMemory).as(what).isEqualTo(fromJdbc);
    for (long id = 1; id <= 3; id++) {
      assertThat(memory.find(id)).as(what + ": row " + id).isEqualTo(jdbc.find(id));
    }
    @SuppressWarnings("unchecked")
    T result = fromJdbc instanceof Thrown ? null : (T) fromJdbc;
    return result;
  }

  private record Thrown(Class<?> type) {}

  private static <T> Object outcome(FlowStore store, Function<FlowStore, T> op) {
    try {
      return op.apply(store);
    } catch (RuntimeException e) {
      return new Thrown(e.getClass());
    }
  }

  private static Instant at(int seconds) {
    return T0.plusSeconds(seconds);
  }

  private static Lease lease(String token, int from) {
    return new Lease(token, at(from + 30));
  }

  private PayFlow create(GoalKey goal, String token, int at) {
    NewPayment payment = new NewPayment(goal, 1_999, "CNY", at(3_600));
    return both("create " + goal.bizKey(), s -> s.createAttempt(payment, lease(token, at), at(at)))
        .flow();
  }

  private static TransitionWrite write(PayFlow from, FlowStatus to, String owner, int at) {
    return new TransitionWrite(
        from,
        to,
        to.isTerminal() ? "DONE" : null,
        to.isTerminal() ? at(at) : at(at + 30),
        to.isTerminal() ? null : owner,
        new HistoryNote(TriggerSource.MANUAL, "req", "TEST", 0),
        at(at));
  }

  private static RescheduleWrite reschedule(PayFlow from, ReviewState review, int at) {
    return new RescheduleWrite(
        from, from.retryCount() + 1, at(at + 5), "WAIT", review, null, at(at));
  }

  @Test
  void creationAndClaimsAgree() {
    PayFlow created = create(GOAL, "A", 0);
    both(
        "a live attempt is returned",
        s -> s.createAttempt(new NewPayment(GOAL, 1_999, "CNY", at(3_600)), lease("B", 1), at(1)));
    both("claim before the lease expires", s -> s.claim(created.id(), lease("B", 10), at(10)));
    both("claim at the expiry", s -> s.claim(created.id(), lease("B", 30), at(30)));
    both("claim due while leased", s -> s.claimDue(0, 10, lease("C", 31), at(31)));
    both("claim due after the lease", s -> s.claimDue(0, 10, lease("C", 60), at(60)));
    both("claim due above the cursor", s -> s.claimDue(created.id(), 10, lease("D", 95), at(95)));
  }

  @Test
  void staleVersionsAndStaleLeasesAgree() {
    PayFlow created = create(GOAL, "A", 0);
    both("takeover", s -> s.claim(created.id(), lease("B", 30), at(30)));
    PayFlow paying =
        both(
                "a stale holder's transition (CAS on version only)",
                s -> s.transition(write(created, FlowStatus.PAYING, "A", 31)))
            .orElseThrow();
    both("a stale version", s -> s.transition(write(created, FlowStatus.CLOSED, "B", 32)));
    PayFlow readByB = withLease(paying, "B");
    both(
        "reschedule under a lease the row no longer has",
        s -> s.reschedule(reschedule(readByB, ReviewState.NONE, 33)));
    both(
        "reschedule and escalate",
        s -> s.reschedule(reschedule(paying, ReviewState.ESCALATED, 34)));
    PayFlow escalated = jdbc.find(created.id()).orElseThrow();
    both(
        "a transition clears the escalation",
        s -> s.transition(write(escalated, FlowStatus.PAYED, "C", 40)));
    PayFlow payed = jdbc.find(created.id()).orElseThrow();
    both(
        "freeze",
        s -> {
          s.freeze(payed.id(), "CONTRADICTION", at(41));
          return true;
        });
    both("claim a frozen flow", s -> s.claim(payed.id(), lease("D", 90), at(90)));
    both("claim due skips a frozen flow", s -> s.claimDue(0, 10, lease("D", 90), at(90)));
    both(
        "transition a frozen flow",
        s -> s.transition(write(payed, FlowStatus.BIZ_SUCCESS, "D", 91)));
  }

  @Test
  void cancelsAndTerminalRowsAgree() {
    PayFlow created = create(GOAL, "A", 0);
    both("cancel before PAYING", s -> s.requestCancel(created.id(), at(1)));
    PayFlow paying =
        both("pay", s -> s.transition(write(created, FlowStatus.PAYING, "A", 2))).orElseThrow();
    both("release", s -> s.reschedule(reschedule(paying, ReviewState.NONE, 3)));
    both("cancel while PAYING and free", s -> s.requestCancel(created.id(), at(4)));
    both("cancel again", s -> s.requestCancel(created.id(), at(5)));
    PayFlow cancelled = jdbc.find(created.id()).orElseThrow();
    PayFlow failed =
        both("fail", s -> s.transition(write(cancelled, FlowStatus.PAY_FAIL, "A", 6)))
            .orElseThrow();
    both("claim a terminal flow", s -> s.claim(failed.id(), lease("B", 99), at(99)));
    both("claim due skips terminal flows", s -> s.claimDue(0, 10, lease("B", 99), at(99)));
    both("an illegal edge", s -> s.transition(write(failed, FlowStatus.PAYED, "B", 99)));
    both("reschedule a terminal flow", s -> s.reschedule(reschedule(failed, ReviewState.NONE, 99)));
    both(
        "numbers are kept",
        s -> {
          s.assignOrderNumbers(failed.id(), OrderNumbers.derive(1, 999), at(99));
          return true;
        });
  }

  @Test
  void readsAgree() {
    PayFlow first = create(GOAL, "A", 0);
    both("fail the first attempt", s -> s.transition(write(first, FlowStatus.CLOSED, "A", 1)));
    PayFlow second = create(GOAL, "B", 2);
    create(OTHER, "C", 3);
    both("by goal", s -> s.findByGoal(GOAL));
    both("by order number", s -> s.findByOrderNo(second.tradeOrderNo()));
    both("by business key", s -> s.findByBizKey(GOAL.bizKey()));
    both("an unknown order number", s -> s.findByOrderNo("t_none"));
    assertThat(List.of(first.attemptNo(), second.attemptNo())).containsExactly(1, 2);
    assertThat(Duration.between(first.createdAt(), second.createdAt())).hasSeconds(2);
  }

  private static PayFlow withLease(PayFlow f, String owner) {
    return new PayFlow(
        f.id(),
        f.goal(),
        f.attemptNo(),
        f.tradeOrderNo(),
        f.refundOrderNo(),
        f.status(),
        f.version(),
        f.amount(),
        f.currency(),
        f.bizDeadline(),
        f.nextRetryTime(),
        f.retryCount(),
        f.lastErrorCode(),
        f.reviewState(),
        f.reviewReason(),
        owner,
        f.createdAt(),
        f.updatedAt(),
        f.cancelRequestedAt());
  }
}
