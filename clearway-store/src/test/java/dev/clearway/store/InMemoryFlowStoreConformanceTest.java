package dev.clearway.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.ReviewState;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.FlowStore.BizKeyPage;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.flow.port.FlowStore.RescheduleWrite;
import dev.clearway.core.flow.port.FlowStore.TransitionWrite;
import dev.clearway.core.modelcheck.memory.Fencing;
import dev.clearway.core.modelcheck.memory.InMemoryFlowStore;
import dev.clearway.core.review.CommandKind;
import dev.clearway.store.testing.Outcomes;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The model checker's in-memory flow store (in its {@code LEASE} mode, the fenced SQL) is held to
 * {@link JdbcFlowStore} and the approval of {@link JdbcReviewStore} on PostgreSQL: the same calls,
 * by holders, stale holders and commands without a lease, with stale versions, give the same
 * answers and leave the same rows.
 */
class InMemoryFlowStoreConformanceTest {
  private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
  private static final GoalKey GOAL = GoalKey.ofDefaultMerchant(41, "renew", "conformance-1");
  private static final GoalKey ELSEWHERE = new GoalKey("shop-b", 41, "renew", "conformance-1");

  private final JdbcFlowStore jdbc = TestDatabase.get().store();
  private final JdbcReviewStore review = new JdbcReviewStore(TestDatabase.get().dataSource());
  private InMemoryFlowStore memory;

  @BeforeEach
  void reset() {
    TestDatabase.get().reset();
    memory = new InMemoryFlowStore(Fencing.LEASE, InMemoryFlowStore.Snapshot.empty());
  }

  /** Runs {@code op} on both stores; the answers (or exception types) and all rows must agree. */
  private <T> T both(String what, Function<FlowStore, T> op) {
    Object fromJdbc = Outcomes.of(jdbc, op);
    Object fromMemory = Outcomes.of(memory, op);
    assertThat(fromMemory).as(what).isEqualTo(fromJdbc);
    sameRows(what);
    return Outcomes.answer(fromJdbc);
  }

  private void sameRows(String what) {
    for (long id = 1; id <= 3; id++) {
      assertThat(memory.find(id)).as(what + ": row " + id).isEqualTo(jdbc.find(id));
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

  /** A worker's transition under {@code holder}, keeping its lease unless the target is final. */
  private static TransitionWrite write(PayFlow from, FlowStatus to, String holder, int at) {
    return new TransitionWrite(
        from,
        to,
        to.isTerminal() ? "DONE" : null,
        to.isTerminal() ? at(at) : at(at + 30),
        to.isTerminal() ? null : holder,
        new HistoryNote(TriggerSource.SCANNER, "req", "TEST", 0),
        at(at),
        holder);
  }

  /** A transition by a command that holds no lease (a cancel through the API). */
  private static TransitionWrite command(PayFlow from, FlowStatus to, int at) {
    return TransitionWrite.command(
        from, to, "CANCELLED", new HistoryNote(TriggerSource.API, null, "CANCEL", 0), at(at));
  }

  private static RescheduleWrite reschedule(
      PayFlow from, ReviewState review, String holder, int at) {
    return new RescheduleWrite(
        from, from.retryCount() + 1, at(at + 5), "WAIT", review, null, at(at), holder);
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
  void staleHoldersWriteNothing() {
    PayFlow created = create(GOAL, "A", 0);
    both("takeover", s -> s.claim(created.id(), lease("B", 30), at(30)));
    both(
        "the creator's transition after the takeover",
        s -> s.transition(write(created, FlowStatus.PAYING, "A", 31)));
    PayFlow paying =
        both(
                "the new holder's transition",
                s -> s.transition(write(created, FlowStatus.PAYING, "B", 31)))
            .orElseThrow();
    both("a stale version", s -> s.transition(write(created, FlowStatus.CLOSED, "B", 32)));
    both(
        "a reschedule by the stale holder",
        s -> s.reschedule(reschedule(paying, ReviewState.NONE, "A", 33)));
    both(
        "a reschedule by a holder that read the row under another owner",
        s -> s.reschedule(reschedule(withLease(paying, "A"), ReviewState.ESCALATED, "B", 34)));
    PayFlow escalated = jdbc.find(created.id()).orElseThrow();
    both(
        "the released holder's transition",
        s -> s.transition(write(escalated, FlowStatus.PAYED, "B", 35)));
    both("claim due after the backoff", s -> s.claimDue(0, 10, lease("C", 40), at(40)));
    PayFlow claimed = jdbc.find(created.id()).orElseThrow();
    PayFlow payed =
        both(
                "a transition clears the escalation",
                s -> s.transition(write(claimed, FlowStatus.PAYED, "C", 41)))
            .orElseThrow();
    both("a freeze by a stale holder", s -> s.freeze(payed.id(), "B", "CONTRADICTION", at(42)));
    both("a freeze without a holder", s -> s.freeze(payed.id(), null, "CONTRADICTION", at(42)));
    both("a freeze by the holder", s -> s.freeze(payed.id(), "C", "CONTRADICTION", at(43)));
    both("a second freeze", s -> s.freeze(payed.id(), "C", "CONTRADICTION", at(44)));
    both("claim a frozen flow", s -> s.claim(payed.id(), lease("D", 90), at(90)));
    both("claim due skips a frozen flow", s -> s.claimDue(0, 10, lease("D", 90), at(90)));
    both(
        "a holder's transition of a frozen flow",
        s -> s.transition(write(payed, FlowStatus.BIZ_SUCCESS, "C", 91)));
    both(
        "a command's transition of a frozen flow",
        s -> s.transition(command(payed, FlowStatus.BIZ_SUCCESS, 91)));
  }

  @Test
  void commandsAreFencedByTheVersionAlone() {
    PayFlow created = create(GOAL, "A", 0);
    both(
        "a cancel closes the flow the creator holds",
        s -> s.transition(command(created, FlowStatus.CLOSED, 1)));
    both(
        "the creator's transition after the cancel",
        s -> s.transition(write(created, FlowStatus.PAYING, "A", 2)));
    both("the creator's freeze of the closed flow", s -> s.freeze(created.id(), "A", "X", at(3)));
    both("a second cancel", s -> s.transition(command(created, FlowStatus.CLOSED, 4)));
  }

  @Test
  void approvedCommandsBumpTheVersionAndReleaseTheLease() {
    PayFlow created = create(GOAL, "A", 0);
    PayFlow paying =
        both("pay", s -> s.transition(write(created, FlowStatus.PAYING, "A", 1))).orElseThrow();
    both("the holder freezes", s -> s.freeze(paying.id(), "A", "CONTRADICTION", at(2)));
    PayFlow frozen = jdbc.find(paying.id()).orElseThrow();
    approve("RESUME of a frozen flow", CommandKind.RESUME, frozen, 3);
    PayFlow resumed = jdbc.find(paying.id()).orElseThrow();
    assertThat(resumed.version()).isEqualTo(frozen.version() + 1);
    assertThat(resumed.status()).isEqualTo(FlowStatus.PAYING);
    both(
        "the worker that read the row before the command",
        s -> s.transition(write(paying, FlowStatus.PAYED, "A", 4)));
    both("its reschedule", s -> s.reschedule(reschedule(paying, ReviewState.NONE, "A", 4)));
    both("a claim after the command", s -> s.claim(paying.id(), lease("B", 5), at(5)));
    PayFlow held = jdbc.find(paying.id()).orElseThrow();
    PayFlow payed =
        both("the new holder pays", s -> s.transition(write(held, FlowStatus.PAYED, "B", 6)))
            .orElseThrow();
    both("it escalates", s -> s.reschedule(reschedule(payed, ReviewState.ESCALATED, "B", 7)));
    PayFlow escalated = jdbc.find(paying.id()).orElseThrow();
    approve("RESUME of an escalated flow", CommandKind.RESUME, escalated, 8);
    approve("a proposal on a stale version", CommandKind.CONFIRM_BIZ_SUCCESS, escalated, 9);
    PayFlow current = jdbc.find(paying.id()).orElseThrow();
    approve("CONFIRM_BIZ_SUCCESS", CommandKind.CONFIRM_BIZ_SUCCESS, current, 10);
    PayFlow done = jdbc.find(paying.id()).orElseThrow();
    assertThat(done.status()).isEqualTo(FlowStatus.BIZ_SUCCESS);
    approve("RESUME of a terminal flow", CommandKind.RESUME, done, 11);
  }

  /**
   * A person's command, proposed on {@code proposed} (its status and version) and approved at
   * {@code at}: applied in both stores or in neither, and the same rows after.
   */
  private void approve(String what, CommandKind kind, PayFlow proposed, int at) {
    boolean applied = jdbcApprove(kind, proposed, at);
    assertThat(memory.approveCommand(kind, proposed, at(at))).as(what).isEqualTo(applied);
    sameRows(what);
  }

  /** Proposes on the flow as it is, pins {@code proposed}'s status and version, then approves. */
  private boolean jdbcApprove(CommandKind kind, PayFlow proposed, int at) {
    JdbcReviewStore.Result proposal =
        review.propose(proposed.id(), kind, "alice", "T-1", "reason", "evidence", at(at));
    if (!(proposal instanceof JdbcReviewStore.Result.Done done)) {
      return false; // refused at proposal: the command does not apply to the flow as it is
    }
    pinTo(done.command().id(), proposed);
    JdbcReviewStore.Result approval = review.approve(done.command().id(), "bob", at(at));
    return approval instanceof JdbcReviewStore.Result.Done d
        && "APPLIED".equals(d.command().state());
  }

  /** The proposal pinned to an older read of the flow, as if proposed before the flow moved. */
  private static void pinTo(long commandId, PayFlow proposed) {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "UPDATE manual_command SET expected_status = ?, expected_version = ?"
                    + " WHERE id = ?")) {
      ps.setString(1, proposed.status().name());
      ps.setLong(2, proposed.version());
      ps.setLong(3, commandId);
      ps.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException("pin the proposal", e);
    }
  }

  @Test
  void cancelsAndTerminalRowsAgree() {
    PayFlow created = create(GOAL, "A", 0);
    both("cancel before PAYING", s -> s.requestCancel(created.id(), at(1)));
    PayFlow paying =
        both("pay", s -> s.transition(write(created, FlowStatus.PAYING, "A", 2))).orElseThrow();
    both("release", s -> s.reschedule(reschedule(paying, ReviewState.NONE, "A", 3)));
    both("cancel while PAYING and free", s -> s.requestCancel(created.id(), at(4)));
    both("cancel again", s -> s.requestCancel(created.id(), at(5)));
    both("claim the cancelled flow", s -> s.claim(created.id(), lease("B", 6), at(6)));
    PayFlow cancelled = jdbc.find(created.id()).orElseThrow();
    PayFlow failed =
        both("fail", s -> s.transition(write(cancelled, FlowStatus.PAY_FAIL, "B", 7)))
            .orElseThrow();
    both("claim a terminal flow", s -> s.claim(failed.id(), lease("C", 99), at(99)));
    both("claim due skips terminal flows", s -> s.claimDue(0, 10, lease("C", 99), at(99)));
    both("an illegal edge", s -> s.transition(write(failed, FlowStatus.PAYED, "B", 99)));
    both(
        "reschedule a terminal flow",
        s -> s.reschedule(reschedule(failed, ReviewState.NONE, "B", 99)));
    both("freeze a terminal flow", s -> s.freeze(failed.id(), "B", "X", at(99)));
    both(
        "numbers are kept",
        s -> {
          s.assignOrderNumbers(failed.id(), OrderNumbers.derive(1, 999), at(99));
          return true;
        });
  }

  @Test
  @Tag(TestDatabase.MYSQL_FAMILY)
  void readsAgree() {
    PayFlow first = create(GOAL, "A", 0);
    both("fail the first attempt", s -> s.transition(write(first, FlowStatus.CLOSED, "A", 1)));
    PayFlow second = create(GOAL, "B", 2);
    create(ELSEWHERE, "C", 3);
    both("by goal", s -> s.findByGoal(GOAL));
    both("by goal of another merchant", s -> s.findByGoal(ELSEWHERE));
    both("by order number", s -> s.findByOrderNo(second.tradeOrderNo()));
    String key = GOAL.bizKey();
    String merchant = GOAL.merchant();
    both(
        "by business key",
        s -> s.findByBizKey(new BizKeyPage(merchant, key, null, null, Long.MAX_VALUE, 100)));
    both(
        "by business key, one row a page",
        s -> s.findByBizKey(new BizKeyPage(merchant, key, null, null, Long.MAX_VALUE, 1)));
    both(
        "by business key, the next page",
        s -> s.findByBizKey(new BizKeyPage(merchant, key, null, null, second.id(), 1)));
    both(
        "by business key, user and scene",
        s -> s.findByBizKey(new BizKeyPage(merchant, key, 41L, "renew", Long.MAX_VALUE, 100)));
    both(
        "by business key, another user",
        s -> s.findByBizKey(new BizKeyPage(merchant, key, 42L, null, Long.MAX_VALUE, 100)));
    both(
        "by business key, another merchant",
        s -> s.findByBizKey(new BizKeyPage("shop-b", key, null, null, Long.MAX_VALUE, 100)));
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
