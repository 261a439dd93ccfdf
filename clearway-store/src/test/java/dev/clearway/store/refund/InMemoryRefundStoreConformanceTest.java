package dev.clearway.store.refund;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.modelcheck.memory.Fencing;
import dev.clearway.core.modelcheck.memory.InMemoryRefundStore;
import dev.clearway.core.refund.domain.NewRefund;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refund.port.RefundStore;
import dev.clearway.core.refund.port.RefundStore.CreateOutcome;
import dev.clearway.core.refund.port.RefundStore.RescheduleWrite;
import dev.clearway.core.refund.port.RefundStore.TransitionWrite;
import dev.clearway.store.JdbcFlowStore;
import dev.clearway.store.testing.Outcomes;
import java.time.Instant;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The model checker's in-memory refund store (in its {@code LEASE} mode, the fenced SQL) is held to
 * {@link JdbcRefundStore} on PostgreSQL: creation's key, merchant, kind and amount rules, claims,
 * and CAS transitions and reschedules by holders and stale holders, with stale versions.
 */
class InMemoryRefundStoreConformanceTest {
  private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
  private static final String SHOP = "shop-a";

  private final JdbcRefundStore jdbc = RefundFixtures.refunds();
  private final JdbcFlowStore flows = RefundFixtures.flows();
  private InMemoryRefundStore memory;

  @BeforeEach
  void reset() {
    RefundFixtures.reset();
    memory =
        new InMemoryRefundStore(Fencing.LEASE, InMemoryRefundStore.Snapshot.empty(), flows::find);
  }

  private <T> T both(String what, Function<RefundStore, T> op) {
    Object fromJdbc = Outcomes.of(jdbc, op);
    Object fromMemory = Outcomes.of(memory, op);
    assertThat(fromMemory).as(what).isEqualTo(fromJdbc);
    for (long id = 1; id <= 3; id++) {
      assertThat(memory.find(id)).as(what + ": refund " + id).isEqualTo(jdbc.find(id));
    }
    return Outcomes.answer(fromJdbc);
  }

  private static Instant at(int seconds) {
    return T0.plusSeconds(seconds);
  }

  private static Lease lease(String token, int from) {
    return new Lease(token, at(from + 30));
  }

  /** A flow of 1999 walked with CAS transitions to {@code last}. */
  private PayFlow flow(String key, FlowStatus... path) {
    PayFlow f =
        flows
            .createAttempt(
                new NewPayment(new GoalKey(SHOP, 51, "renew", key), 1_999, "CNY", at(3_600)),
                lease("creator", 0),
                at(0))
            .flow();
    for (FlowStatus to : path) {
      f =
          flows
              .transition(
                  new dev.clearway.core.flow.port.FlowStore.TransitionWrite(
                      f,
                      to,
                      null,
                      at(0),
                      to.isTerminal() ? null : "creator",
                      new HistoryNote(TriggerSource.MANUAL, null, "TEST", 0),
                      at(0),
                      "creator"))
              .orElseThrow();
    }
    return f;
  }

  /** A worker's transition under {@code holder}; PROCESSING keeps its lease. */
  private static TransitionWrite write(RefundOrder from, RefundStatus to, String holder, int at) {
    boolean keeps = to == RefundStatus.PROCESSING;
    return new TransitionWrite(
        from,
        to,
        to == RefundStatus.FAIL ? "REFUSED" : null,
        keeps ? at(at + 30) : at(at),
        keeps ? holder : null,
        new HistoryNote(TriggerSource.SCANNER, "req", "TEST", 0),
        at(at),
        holder);
  }

  private static RescheduleWrite reschedule(RefundOrder from, String holder, int at) {
    return new RescheduleWrite(from, from.retryCount() + 1, at(at + 5), "WAIT", at(at), holder);
  }

  @Test
  void creationAgrees() {
    PayFlow paid = flow("paid", FlowStatus.PAYING, FlowStatus.PAYED, FlowStatus.BIZ_SUCCESS);
    PayFlow open = flow("open", FlowStatus.PAYING);
    NewRefund first = new NewRefund(paid.id(), 1_200, "damaged", SHOP, "k1");
    both("create", s -> s.create(first, lease("A", 1), at(1)));
    both("the same key again", s -> s.create(first, lease("B", 2), at(2)));
    both(
        "the same key, another amount",
        s ->
            s.create(new NewRefund(paid.id(), 1_000, "damaged", SHOP, "k1"), lease("B", 2), at(2)));
    both(
        "more than is left",
        s -> s.create(new NewRefund(paid.id(), 800, "late", SHOP, "k2"), lease("B", 3), at(3)));
    both(
        "what is left",
        s -> s.create(new NewRefund(paid.id(), 799, "late", SHOP, "k3"), lease("B", 4), at(4)));
    both(
        "a flow not yet paid",
        s -> s.create(new NewRefund(open.id(), 10, "x", SHOP, "k4"), lease("C", 5), at(5)));
    both(
        "no such flow",
        s -> s.create(new NewRefund(999, 10, "x", SHOP, "k5"), lease("C", 5), at(5)));
    both(
        "another merchant's payment",
        s -> s.create(new NewRefund(paid.id(), 10, "x", "shop-b", "k6"), lease("C", 6), at(6)));
    both("the flow's refunds", s -> s.findByFlow(paid.id(), 0, 10));
    both("the flow's refunds, one a page", s -> s.findByFlow(paid.id(), 0, 1));
    both("the flow's refunds, the next page", s -> s.findByFlow(paid.id(), 1, 1));
  }

  @Test
  void staleHoldersWriteNothing() {
    PayFlow paid = flow("paid", FlowStatus.PAYING, FlowStatus.PAYED, FlowStatus.BIZ_SUCCESS);
    RefundOrder created =
        ((CreateOutcome.Created)
                both(
                    "create",
                    s ->
                        s.create(
                            new NewRefund(paid.id(), 500, "r", SHOP, "k1"), lease("A", 0), at(0))))
            .refund();
    both("claim while held", s -> s.claim(created.id(), lease("B", 10), at(10)));
    both("claim at the expiry", s -> s.claim(created.id(), lease("B", 30), at(30)));
    both(
        "the creator's transition after the takeover",
        s -> s.transition(write(created, RefundStatus.PROCESSING, "A", 31)));
    RefundOrder processing =
        both(
                "the new holder's transition",
                s -> s.transition(write(created, RefundStatus.PROCESSING, "B", 31)))
            .orElseThrow();
    both("a stale version", s -> s.transition(write(created, RefundStatus.CLOSED, "B", 32)));
    both("a reschedule by the stale holder", s -> s.reschedule(reschedule(processing, "A", 33)));
    both(
        "a reschedule by a holder that read the row under another owner",
        s -> s.reschedule(reschedule(withLease(processing, "A"), "B", 34)));
    both(
        "the released holder's transition",
        s -> s.transition(write(processing, RefundStatus.SUCCESS, "B", 35)));
    both("claim due too early", s -> s.claimDue(0, 10, lease("C", 35), at(35)));
    both("claim due", s -> s.claimDue(0, 10, lease("C", 40), at(40)));
    RefundOrder claimed = jdbc.find(created.id()).orElseThrow();
    RefundOrder abnormal =
        both("abnormal", s -> s.transition(write(claimed, RefundStatus.ABNORMAL, "C", 41)))
            .orElseThrow();
    both(
        "the released holder after ABNORMAL",
        s -> s.transition(write(abnormal, RefundStatus.FAIL, "C", 42)));
    both("claim the ABNORMAL refund when due", s -> s.claimDue(0, 10, lease("D", 99), at(99)));
    RefundOrder held = jdbc.find(created.id()).orElseThrow();
    RefundOrder failed =
        both("fail", s -> s.transition(write(held, RefundStatus.FAIL, "D", 100))).orElseThrow();
    both("an illegal edge", s -> s.transition(write(failed, RefundStatus.SUCCESS, "D", 101)));
    both("claim a terminal refund", s -> s.claim(failed.id(), lease("E", 199), at(199)));
    both("claim due skips terminal refunds", s -> s.claimDue(0, 10, lease("E", 199), at(199)));
    both("reschedule a terminal refund", s -> s.reschedule(reschedule(failed, "D", 199)));
    both("the flow's refunds", s -> s.findByFlow(paid.id(), 0, 10));
  }

  private static RefundOrder withLease(RefundOrder r, String owner) {
    return new RefundOrder(
        r.id(),
        r.flowId(),
        r.merchantId(),
        r.seq(),
        r.tradeOrderNo(),
        r.refundNo(),
        r.amount(),
        r.currency(),
        r.reason(),
        r.requestedBy(),
        r.status(),
        r.version(),
        r.nextRetryTime(),
        r.retryCount(),
        r.lastErrorCode(),
        owner,
        r.createdAt(),
        r.updatedAt());
  }
}
