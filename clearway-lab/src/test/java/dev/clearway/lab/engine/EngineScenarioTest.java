package dev.clearway.lab.engine;

import static dev.clearway.core.flow.domain.FlowStatus.BIZ_SUCCESS;
import static dev.clearway.core.flow.domain.FlowStatus.CLOSED;
import static dev.clearway.core.flow.domain.FlowStatus.PAYED;
import static dev.clearway.core.flow.domain.FlowStatus.PAYING;
import static dev.clearway.core.flow.domain.FlowStatus.PAY_FAIL;
import static dev.clearway.core.flow.domain.FlowStatus.REFUNDED;
import static dev.clearway.core.flow.domain.FlowStatus.REFUNDING;
import static dev.clearway.core.flow.domain.FlowStatus.WAIT_PAY;
import static dev.clearway.service.testkit.EngineHarness.AMOUNT;
import static dev.clearway.service.testkit.EngineHarness.CURRENCY;
import static dev.clearway.service.testkit.EngineHarness.T0;
import static dev.clearway.service.testkit.EngineHarness.USER;
import static dev.clearway.service.testkit.EngineHarness.goal;
import static dev.clearway.service.testkit.EngineHarness.payment;
import static dev.clearway.service.testkit.EngineHarness.refundNo;
import static dev.clearway.service.testkit.EngineHarness.trade;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.ReviewState;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.AdvanceResult;
import dev.clearway.core.flow.engine.AdvanceResult.Outcome;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.engine.PaymentService.Started;
import dev.clearway.core.flow.engine.Trigger;
import dev.clearway.core.flow.fact.Certainty;
import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import dev.clearway.service.testkit.EngineHarness;
import dev.clearway.service.testkit.ScriptedBusiness.Fulfil;
import dev.clearway.service.testkit.ScriptedWallet.Call;
import dev.clearway.service.testkit.ScriptedWallet.Pay;
import dev.clearway.service.testkit.ScriptedWallet.Refund;
import dev.clearway.sim.LedgerEntry;
import dev.clearway.sim.SimulatedCrash;
import dev.clearway.store.testing.FlowRowInsert;
import dev.clearway.store.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The fault scenarios, one at a time, on the real engine (Advancer, Scanner, PaymentService,
 * JdbcFlowStore over embedded PostgreSQL) with scripted wallet and business. Flow ids restart at 1
 * for every test, so flow 1's order numbers are known before it exists.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class EngineScenarioTest {
  private static final EngineConfig CONFIG = EngineConfig.compressed();
  private static final Instant DEADLINE = T0.plusSeconds(10);
  private static final Duration GRACE = CONFIG.deadlineGrace();
  private static final Duration LEASE = CONFIG.lease();
  private static final GoalKey GOAL = goal("R:16:73:2024-05-01:3");

  private EngineHarness h = EngineHarness.fresh(CONFIG);

  @AfterEach
  void invariantsHold() {
    if (h != null) {
      assertThat(Invariants.safety(h)).as("safety invariants at the end").isEmpty();
    }
  }

  // ---- payment stage ------------------------------------------------------------------------

  @Test
  void chargedButResponseLostStaysPayingThenQueriesTheSameOrder() {
    h.wallet.scriptPay(trade(1), Pay.RESPONSE_LOST);

    Started started = h.start(GOAL, DEADLINE);

    assertThat(started.created()).isTrue();
    assertThat(started.result().outcome()).isEqualTo(Outcome.WAITING);
    PayFlow f = h.flow(1);
    assertThat(f.status()).as("a timeout is not a failure").isEqualTo(PAYING);
    assertThat(f.lastErrorCode()).isEqualTo("TIMEOUT");
    assertThat(f.leaseOwner()).as("lease released for the retry").isNull();
    assertThat(f.nextRetryTime()).isAfter(T0);
    assertThat(h.wakeups.forFlow(1)).containsExactly(f.nextRetryTime());
    assertThat(h.wallet.charges(trade(1))).isEqualTo(1);

    // The wake-up is dropped; the scanner does not take the flow before it is due...
    assertThat(h.scan()).isZero();
    assertThat(h.flow(1).status()).isEqualTo(PAYING);

    // ...and a later advance queries the same order and finishes it.
    h.clock.set(f.nextRetryTime());
    AdvanceResult later = h.advance(1, TriggerSource.WAKEUP);

    assertThat(later.outcome()).isEqualTo(Outcome.TERMINAL);
    assertThat(h.flow(1).status()).isEqualTo(BIZ_SUCCESS);
    assertThat(h.path(1)).containsExactly("WAIT_PAY", "PAYING", "PAYED", "BIZ_SUCCESS");
    assertThat(h.path(1)).doesNotContain("PAY_FAIL");
    assertThat(h.wallet.calls())
        .extracting(Call::kind, Call::orderNo)
        .containsExactly(tuple("PAY", trade(1)), tuple("QUERY", trade(1)));
    assertThat(h.wallet.ledger()).hasSize(1);
    assertThat(h.wallet.charges(trade(1))).isEqualTo(1);
    assertThat(h.store.findByGoal(GOAL)).hasSize(1);
  }

  @Test
  void timeoutBeforeExecutingResendsTheSameOrderBeforeTheDeadline() {
    h.wallet.scriptPay(trade(1), Pay.TIMEOUT_BEFORE);

    h.start(GOAL, DEADLINE);
    assertThat(h.flow(1).status()).isEqualTo(PAYING);
    assertThat(h.wallet.ledger()).isEmpty();

    h.clock.set(h.flow(1).nextRetryTime());
    h.advance(1, TriggerSource.WAKEUP);

    assertThat(h.flow(1).status()).isEqualTo(BIZ_SUCCESS);
    assertThat(h.wallet.calls())
        .extracting(Call::kind, Call::orderNo)
        .containsExactly(tuple("PAY", trade(1)), tuple("QUERY", trade(1)), tuple("PAY", trade(1)));
    assertThat(h.wallet.charges(trade(1))).isEqualTo(1);
  }

  @Test
  void crashAfterChargeBeforeCasIsRecoveredByTheScannerAfterTheLease() {
    h.wallet.scriptPay(trade(1), Pay.CRASH_AFTER);

    assertThatThrownBy(() -> h.start(GOAL, DEADLINE)).isInstanceOf(SimulatedCrash.class);

    PayFlow crashed = h.flow(1);
    assertThat(crashed.status()).isEqualTo(PAYING);
    assertThat(crashed.leaseOwner()).as("the dead worker still holds the lease").isNotNull();
    assertThat(crashed.nextRetryTime()).isEqualTo(T0.plus(LEASE));
    assertThat(h.wallet.charges(trade(1))).isEqualTo(1);

    // While the lease holds, nobody else touches the flow.
    assertThat(h.advance(1, TriggerSource.CALLBACK).outcome()).isEqualTo(Outcome.BUSY);
    assertThat(h.scan()).isZero();
    assertThat(h.flow(1)).isEqualTo(crashed);

    h.clock.advance(LEASE.plusMillis(1));
    assertThat(h.scan()).isEqualTo(1);

    assertThat(h.flow(1).status()).isEqualTo(BIZ_SUCCESS);
    assertThat(h.history(1).get(2).trigger()).isEqualTo("SCANNER");
    assertThat(h.wallet.calls("PAY")).hasSize(1);
    assertThat(h.wallet.calls("QUERY")).extracting(Call::orderNo).containsExactly(trade(1));
    assertThat(h.wallet.charges(trade(1))).isEqualTo(1);
  }

  @Test
  void definiteRejectionFailsTheAttemptAndOnlyThenAllowsAttemptTwo() {
    h.wallet.scriptPay(trade(1), Pay.REJECT);

    Started first = h.start(GOAL, DEADLINE);

    assertThat(first.result().outcome()).isEqualTo(Outcome.TERMINAL);
    assertThat(h.flow(1).status()).isEqualTo(PAY_FAIL);
    assertThat(h.flow(1).lastErrorCode()).isEqualTo("INSUFFICIENT_BALANCE");
    assertThat(h.wallet.ledger()).isEmpty();

    h.business.script(trade(2), Fulfil.NEVER); // attempt 2 stays live (PAYED)
    Started second = h.start(GOAL, DEADLINE);

    assertThat(second.created()).isTrue();
    assertThat(second.flow().id()).isEqualTo(2);
    assertThat(second.flow().attemptNo()).isEqualTo(2);
    assertThat(second.flow().tradeOrderNo()).isEqualTo(trade(2)).isNotEqualTo(trade(1));
    assertThat(h.flow(2).status()).isEqualTo(PAYED);

    Started third = h.start(GOAL, DEADLINE);

    assertThat(third.created()).as("a live attempt is returned, not replaced").isFalse();
    assertThat(third.flow().id()).isEqualTo(2);
    assertThat(third.flow().attemptNo()).isEqualTo(2);
    assertThat(h.store.findByGoal(GOAL))
        .extracting(PayFlow::attemptNo, PayFlow::status)
        .containsExactly(tuple(1, PAY_FAIL), tuple(2, PAYED));
    assertThat(h.wallet.ledger()).extracting(LedgerEntry::orderNo).containsExactly(trade(2));
  }

  @Test
  void noRecordAfterTheDeadlineClosesTheOrderAndALatePayIsRejected() {
    h.wallet.scriptPay(trade(1), Pay.TIMEOUT_BEFORE);
    h.start(GOAL, DEADLINE);
    assertThat(h.flow(1).status()).isEqualTo(PAYING);

    h.clock.set(DEADLINE);
    AdvanceResult r = h.advance(1, TriggerSource.WAKEUP);

    assertThat(r.outcome()).isEqualTo(Outcome.TERMINAL);
    assertThat(h.flow(1).status()).isEqualTo(PAY_FAIL);
    assertThat(h.flow(1).lastErrorCode()).isEqualTo("CLOSED_BEFORE_CHARGE");
    assertThat(h.wallet.calls())
        .extracting(Call::kind)
        .as("no pay is re-sent after the deadline")
        .containsExactly("PAY", "QUERY", "CLOSE");

    ChargeRequest original = new ChargeRequest(trade(1), USER, AMOUNT, CURRENCY);
    WalletResult late = h.wallet.deliverLatePay(trade(1));

    assertThat(late).as("the timed-out request was in transit").isNotNull();
    assertThat(late.certainty()).isEqualTo(Certainty.DEFINITE_FAILURE);
    assertThat(h.wallet.pay(original).certainty()).isEqualTo(Certainty.DEFINITE_FAILURE);
    assertThat(h.wallet.ledger()).isEmpty();

    // A definite failure lets the goal start again; past its deadline the new attempt closes.
    Started again = h.start(GOAL, DEADLINE);
    assertThat(again.created()).isTrue();
    assertThat(again.flow().attemptNo()).isEqualTo(2);
    assertThat(h.flow(2).status()).isEqualTo(CLOSED);
    assertThat(h.wallet.calls("PAY")).extracting(Call::orderNo).containsOnly(trade(1));
  }

  @Test
  void waitPayPastTheDeadlineIsClosedByTheScannerWithoutAnyWalletCall() {
    // The creating request died right after the insert: WAIT_PAY, held by its creation lease.
    PayFlow created =
        h.store.createAttempt(payment(GOAL, DEADLINE), h.leases.next(), h.clock.instant()).flow();
    assertThat(created.status()).isEqualTo(WAIT_PAY);

    h.clock.set(DEADLINE.plus(LEASE));
    assertThat(h.scan()).isEqualTo(1);

    assertThat(h.flow(created.id()).status()).isEqualTo(CLOSED);
    assertThat(h.history(created.id()))
        .extracting(EngineHarness.Edge::to, EngineHarness.Edge::trigger)
        .containsExactly(tuple("WAIT_PAY", "SYNC"), tuple("CLOSED", "SCANNER"));
    assertThat(h.wallet.calls()).isEmpty();
    assertThat(h.business.fulfilCalls()).isEmpty();
  }

  @Test
  void rowLeftWithoutOrderNumbersGetsTheSameDerivedNumbers() throws Exception {
    long id =
        FlowRowInsert.of("R:crash", 1, "WAIT_PAY", T0)
            .owner(GoalKey.DEFAULT_MERCHANT, USER, "renew")
            .money(AMOUNT, "CNY")
            .insert(h.dataSource);

    assertThat(h.scan()).isEqualTo(1);

    PayFlow f = h.flow(id);
    assertThat(f.tradeOrderNo()).isEqualTo(OrderNumbers.derive(USER, id).tradeOrderNo());
    assertThat(f.refundOrderNo()).isEqualTo(OrderNumbers.derive(USER, id).refundOrderNo());
    assertThat(f.status()).isEqualTo(BIZ_SUCCESS);
    assertThat(h.wallet.calls("PAY")).extracting(Call::orderNo).containsExactly(trade(id));
    h = null; // planted row has no creation history: skip the history invariant
  }

  // ---- business stage -----------------------------------------------------------------------

  @Test
  void businessCommittedButResponseLostEndsInBizSuccessWithoutRefund() {
    h.business.script(trade(1), Fulfil.RESPONSE_LOST);

    Started started = h.start(GOAL, DEADLINE);

    assertThat(started.result().outcome()).isEqualTo(Outcome.TERMINAL);
    assertThat(h.flow(1).status()).isEqualTo(BIZ_SUCCESS);
    assertThat(h.business.grants())
        .singleElement()
        .satisfies(
            g -> {
              assertThat(g.attributedOrderNo()).isEqualTo(trade(1));
            });
    assertThat(h.wallet.calls("REFUND")).isEmpty();
    assertThat(h.wallet.calls("REFUND_QUERY")).isEmpty();
  }

  @Test
  void crashAfterGrantRecoveredPastTheDeadlineIsBizSuccessNotARefund() {
    h.business.script(trade(1), Fulfil.CRASH_AFTER_GRANT);

    assertThatThrownBy(() -> h.start(GOAL, DEADLINE)).isInstanceOf(SimulatedCrash.class);
    assertThat(h.flow(1).status()).isEqualTo(PAYED);
    assertThat(h.flow(1).leaseOwner()).isNotNull();

    // Recovery only long after deadline + grace: the fact and its attribution decide.
    h.clock.set(DEADLINE.plus(GRACE).plus(Duration.ofHours(1)));
    assertThat(h.scan()).isEqualTo(1);

    assertThat(h.flow(1).status()).isEqualTo(BIZ_SUCCESS);
    assertThat(h.wallet.calls("REFUND")).isEmpty();
    assertThat(h.business.fulfilCalls()).hasSize(1);
  }

  @Test
  void businessNeverCompletesRefundsAfterDeadlinePlusGraceWithTheFixedRefundNumber() {
    h.business.script(trade(1), Fulfil.NEVER);

    h.start(GOAL, DEADLINE);
    assertThat(h.flow(1).status()).isEqualTo(PAYED);
    assertThat(h.flow(1).lastErrorCode()).isEqualTo("BIZ_NOT_DONE");

    h.clock.set(DEADLINE.minusMillis(1));
    h.advance(1, TriggerSource.WAKEUP);
    assertThat(h.flow(1).status()).isEqualTo(PAYED);
    assertThat(h.business.fulfilCalls()).hasSize(2);

    h.clock.set(DEADLINE);
    h.advance(1, TriggerSource.WAKEUP);
    assertThat(h.flow(1).status()).as("within the grace").isEqualTo(PAYED);
    assertThat(h.business.fulfilCalls()).as("no business call at the deadline").hasSize(2);

    h.clock.set(DEADLINE.plus(GRACE));
    AdvanceResult r = h.advance(1, TriggerSource.SCANNER);

    assertThat(r.outcome()).isEqualTo(Outcome.TERMINAL);
    PayFlow f = h.flow(1);
    assertThat(f.status()).isEqualTo(REFUNDED);
    assertThat(f.refundOrderNo()).isEqualTo(refundNo(1)).isEqualTo("r_" + trade(1));
    assertThat(h.wallet.ledger())
        .filteredOn(e -> e.kind() == LedgerEntry.Kind.REFUND)
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.orderNo()).isEqualTo(refundNo(1));
              assertThat(e.tradeOrderNo()).isEqualTo(trade(1));
              assertThat(e.amount()).isEqualTo(AMOUNT);
            });
    assertThat(h.history(1))
        .extracting(EngineHarness.Edge::to, EngineHarness.Edge::errorCode)
        .endsWith(tuple("REFUNDING", "BIZ_DEADLINE_PASSED"), tuple("REFUNDED", null));
    assertThat(h.business.fulfilCalls()).allSatisfy(c -> assertThat(c.at()).isBefore(DEADLINE));
    assertThat(h.business.grants()).isEmpty();
  }

  @Test
  void factUnreadableLongAfterTheDeadlineNeverRefundsAndEscalates() {
    EngineConfig config = withRetryBudget(3);
    h = EngineHarness.fresh(config);
    h.business.script(trade(1), Fulfil.NEVER);
    h.business.unreadableFacts(GOAL, Integer.MAX_VALUE);

    h.start(GOAL, DEADLINE);
    assertThat(h.flow(1).status()).isEqualTo(PAYED);

    h.clock.set(DEADLINE.plus(Duration.ofHours(6)));
    for (int i = 0; i < 8; i++) {
      h.clock.atLeast(h.flow(1).nextRetryTime());
      assertThat(h.scan()).as("round %d still finds the flow", i).isEqualTo(1);
      PayFlow f = h.flow(1);
      assertThat(f.status()).isEqualTo(PAYED);
      assertThat(f.lastErrorCode()).isEqualTo("BIZ_HTTP_503");
      assertThat(f.nextRetryTime()).isAfter(h.clock.instant());
    }

    PayFlow f = h.flow(1);
    assertThat(f.reviewState()).isEqualTo(ReviewState.ESCALATED);
    assertThat(f.retryCount()).isGreaterThan(config.retryBudget());
    assertThat(h.events.count("escalated")).isEqualTo(1);
    assertThat(h.wallet.calls("REFUND")).isEmpty();
    assertThat(h.business.fulfilCalls()).hasSize(1);

    // Once the fact is readable (and says not done), the escalated flow still has its exit.
    h.business.unreadableFacts(GOAL, 0);
    h.clock.set(f.nextRetryTime());
    assertThat(h.scan()).isEqualTo(1);
    assertThat(h.flow(1).status()).isEqualTo(REFUNDED);
  }

  @Test
  void goalGrantedToAnotherOrderRefundsThisAttemptAndNeverClaimsSuccess() {
    h.business.script(trade(1), Fulfil.NEVER);
    h.start(GOAL, DEADLINE);
    assertThat(h.flow(1).status()).isEqualTo(PAYED);

    assertThat(h.business.grantForeign(GOAL, "legacy_h2r_u16_p0")).isTrue();
    AdvanceResult r = h.advance(1, TriggerSource.CALLBACK);

    assertThat(r.outcome()).isEqualTo(Outcome.TERMINAL);
    assertThat(h.flow(1).status()).isEqualTo(REFUNDED);
    assertThat(h.path(1)).doesNotContain("BIZ_SUCCESS");
    assertThat(h.history(1))
        .filteredOn(e -> "REFUNDING".equals(e.to()))
        .singleElement()
        .extracting(EngineHarness.Edge::errorCode)
        .isEqualTo("BIZ_DONE_BY_OTHER_ORDER");
    assertThat(h.business.grants())
        .singleElement()
        .satisfies(g -> assertThat(g.attributedOrderNo()).isEqualTo("legacy_h2r_u16_p0"));
    assertThat(h.wallet.refunds(refundNo(1))).isEqualTo(1);
  }

  @Test
  void contradictoryBusinessFactFreezesAndTheFlowIsNotClaimable() {
    h.business.script(trade(1), Fulfil.NEVER);
    h.start(GOAL, DEADLINE);
    h.business.completeWithoutAttribution(GOAL);

    AdvanceResult r = h.advance(1, TriggerSource.WAKEUP);

    assertThat(r.outcome()).isEqualTo(Outcome.FROZEN);
    PayFlow frozen = h.flow(1);
    assertThat(frozen.status()).isEqualTo(PAYED);
    assertThat(frozen.reviewState()).isEqualTo(ReviewState.FROZEN);
    assertThat(frozen.reviewReason()).isEqualTo("BIZ_DONE_WITHOUT_ATTRIBUTION");
    assertThat(h.events.count("frozen")).isEqualTo(1);
    int fulfilCalls = h.business.fulfilCalls().size();
    int factReads = h.business.factReads();

    h.clock.set(DEADLINE.plus(Duration.ofDays(1)));
    assertThat(h.store.claim(1, h.leases.next(), h.clock.instant())).isFalse();
    assertThat(h.scan()).isZero();
    assertThat(h.advance(1, TriggerSource.WAKEUP).outcome()).isEqualTo(Outcome.FROZEN);
    Started again = h.start(GOAL, DEADLINE);
    assertThat(again.created()).isFalse();
    assertThat(again.result().outcome()).isEqualTo(Outcome.FROZEN);

    assertThat(h.flow(1).version()).isEqualTo(frozen.version());
    assertThat(h.flow(1).status()).isEqualTo(PAYED);
    assertThat(h.business.fulfilCalls()).hasSize(fulfilCalls);
    assertThat(h.business.factReads()).isEqualTo(factReads);
    assertThat(h.wallet.calls("REFUND")).isEmpty();
  }

  // ---- refund stage -------------------------------------------------------------------------

  @Test
  void refundResponseLostIsQueriedByTheSameRefundNumber() {
    h.business.script(trade(1), Fulfil.NEVER);
    h.wallet.scriptRefund(refundNo(1), Refund.RESPONSE_LOST);
    h.start(GOAL, DEADLINE);

    h.clock.set(DEADLINE.plus(GRACE));
    AdvanceResult r = h.advance(1, TriggerSource.WAKEUP);

    assertThat(r.outcome()).isEqualTo(Outcome.WAITING);
    assertThat(h.flow(1).status()).isEqualTo(REFUNDING);
    assertThat(h.flow(1).lastErrorCode()).isEqualTo("TIMEOUT");
    assertThat(h.wallet.refunds(refundNo(1))).isEqualTo(1);

    h.clock.set(h.flow(1).nextRetryTime());
    assertThat(h.scan()).isEqualTo(1);

    assertThat(h.flow(1).status()).isEqualTo(REFUNDED);
    assertThat(h.wallet.calls())
        .filteredOn(c -> c.kind().startsWith("REFUND"))
        .extracting(Call::kind, Call::orderNo)
        .containsExactly(tuple("REFUND", refundNo(1)), tuple("REFUND_QUERY", refundNo(1)));
    assertThat(h.wallet.refunds(refundNo(1))).isEqualTo(1);
  }

  @Test
  void refundFailedOnceIsRetriedWithTheSameNumber() {
    h.business.script(trade(1), Fulfil.NEVER);
    h.wallet.scriptRefund(refundNo(1), Refund.FAILED_ONCE);
    h.start(GOAL, DEADLINE);

    h.clock.set(DEADLINE.plus(GRACE));
    h.advance(1, TriggerSource.WAKEUP);

    assertThat(h.flow(1).status()).isEqualTo(REFUNDING);
    assertThat(h.flow(1).lastErrorCode()).isEqualTo("MERCHANT_BALANCE_LOW");
    assertThat(h.flow(1).reviewState()).isEqualTo(ReviewState.NONE);
    assertThat(h.wallet.refunds(refundNo(1))).isZero();

    h.clock.set(h.flow(1).nextRetryTime());
    h.advance(1, TriggerSource.WAKEUP);

    assertThat(h.flow(1).status()).isEqualTo(REFUNDED);
    assertThat(h.wallet.calls())
        .filteredOn(c -> c.kind().startsWith("REFUND"))
        .extracting(Call::kind, Call::orderNo)
        .containsExactly(
            tuple("REFUND", refundNo(1)),
            tuple("REFUND_QUERY", refundNo(1)),
            tuple("REFUND", refundNo(1)));
    assertThat(h.wallet.refunds(refundNo(1))).isEqualTo(1);
  }

  // ---- terminal states and manual review ----------------------------------------------------

  @Test
  void staleTriggerOnATerminalFlowChangesNothing() {
    h.start(GOAL, DEADLINE);
    PayFlow done = h.flow(1);
    assertThat(done.status()).isEqualTo(BIZ_SUCCESS);
    int historyRows = h.history(1).size();
    int walletCalls = h.wallet.calls().size();
    int fulfilCalls = h.business.fulfilCalls().size();
    int factReads = h.business.factReads();

    h.clock.advance(Duration.ofMinutes(5));
    for (TriggerSource source : TriggerSource.values()) {
      assertThat(h.advance(1, source).outcome()).isEqualTo(Outcome.TERMINAL);
      // A scanner task dispatched long ago, under a lease it no longer holds.
      assertThat(h.advancer.advance(1, Trigger.held(source, h.leases.next())).outcome())
          .isEqualTo(Outcome.TERMINAL);
    }
    assertThat(h.scan()).isZero();

    assertThat(h.flow(1)).isEqualTo(done);
    assertThat(h.history(1)).hasSize(historyRows);
    assertThat(h.wallet.calls()).hasSize(walletCalls);
    assertThat(h.business.fulfilCalls()).hasSize(fulfilCalls);
    assertThat(h.business.factReads()).isEqualTo(factReads);
  }

  @Test
  void bizSuccessIsNeverRefundedByAnyPath() {
    h.business.script(trade(1), Fulfil.RESPONSE_LOST);
    h.start(GOAL, DEADLINE);
    assertThat(h.flow(1).status()).isEqualTo(BIZ_SUCCESS);

    // Long past the deadline, with the business fact now unreadable, every entry is tried.
    h.business.unreadableFacts(GOAL, Integer.MAX_VALUE);
    h.clock.set(DEADLINE.plus(Duration.ofDays(2)));
    for (TriggerSource source : TriggerSource.values()) {
      h.advance(1, source);
      h.advancer.advance(1, Trigger.held(source, h.leases.next()));
      h.scan();
    }
    Started again = h.start(GOAL, DEADLINE);

    assertThat(again.created()).isFalse();
    assertThat(again.result().outcome()).isEqualTo(Outcome.TERMINAL);
    assertThat(h.flow(1).status()).isEqualTo(BIZ_SUCCESS);
    assertThat(h.wallet.calls()).extracting(Call::kind).doesNotContain("REFUND", "REFUND_QUERY");
    assertThat(h.wallet.ledger())
        .extracting(LedgerEntry::kind)
        .containsExactly(LedgerEntry.Kind.CHARGE);
  }

  @Test
  void retryBudgetSpentEscalatesAndKeepsReschedulingNeverDropped() {
    EngineConfig config = withRetryBudget(3);
    h = EngineHarness.fresh(config);
    Instant deadline = T0.plus(Duration.ofHours(1));
    h.wallet.setDown(true);

    h.start(GOAL, deadline);
    assertThat(h.flow(1).status()).isEqualTo(PAYING);
    assertThat(h.flow(1).retryCount()).isEqualTo(1);

    int rounds = 0;
    while (h.flow(1).reviewState() == ReviewState.NONE) {
      assertThat(rounds++).as("escalation within the budget").isLessThan(config.retryBudget());
      h.clock.set(h.flow(1).nextRetryTime());
      assertThat(h.scan()).isEqualTo(1);
    }
    PayFlow escalated = h.flow(1);
    assertThat(escalated.retryCount()).isEqualTo(config.retryBudget() + 1);
    assertThat(escalated.status()).isEqualTo(PAYING);
    assertThat(escalated.lastErrorCode()).isEqualTo("WALLET_DOWN");
    assertThat(escalated.reviewReason()).contains("WALLET_DOWN");
    assertThat(escalated.nextRetryTime())
        .isEqualTo(h.clock.instant().plus(config.escalatedInterval()));
    assertThat(escalated.leaseOwner()).isNull();

    // Escalated flows are retried at the lower frequency, forever, and found by the scanner.
    for (int i = 0; i < 5; i++) {
      Instant due = h.flow(1).nextRetryTime();
      h.clock.set(due.minusMillis(1));
      assertThat(h.scan()).as("not before it is due").isZero();
      h.clock.set(due);
      assertThat(h.scan()).as("escalated round %d", i).isEqualTo(1);
      assertThat(h.flow(1).reviewState()).isEqualTo(ReviewState.ESCALATED);
      assertThat(h.flow(1).nextRetryTime()).isEqualTo(due.plus(config.escalatedInterval()));
    }
    assertThat(h.events.count("escalated")).isEqualTo(1);

    // The wallet recovers: the same order is queried (no record), re-sent, and the flow finishes.
    h.wallet.setDown(false);
    h.clock.set(h.flow(1).nextRetryTime());
    assertThat(h.scan()).isEqualTo(1);
    PayFlow done = h.flow(1);
    assertThat(done.status()).isEqualTo(BIZ_SUCCESS);
    assertThat(done.reviewState()).isEqualTo(ReviewState.NONE);
    assertThat(h.wallet.charges(trade(1))).isEqualTo(1);
  }

  @Test
  void escalationReasonNamesTheStageThatSpentItsBudget() {
    EngineConfig config = withRetryBudget(2);
    h = EngineHarness.fresh(config);
    Instant deadline = T0.plus(Duration.ofHours(1));
    h.wallet.setDown(true);
    h.business.script(trade(1), Fulfil.NEVER);
    h.business.unreadableFacts(GOAL, Integer.MAX_VALUE);

    h.start(GOAL, deadline);
    driveUntilEscalated(FlowStatus.PAYING);
    assertThat(h.flow(1).reviewReason()).isEqualTo("RETRY_BUDGET_SPENT:WALLET_DOWN");

    h.wallet.setDown(false);
    h.clock.set(h.flow(1).nextRetryTime());
    h.scan();
    assertThat(h.flow(1).status()).isEqualTo(PAYED);
    assertThat(h.flow(1).reviewState()).isEqualTo(ReviewState.NONE);

    driveUntilEscalated(PAYED);
    PayFlow f = h.flow(1);
    assertThat(f.lastErrorCode()).isEqualTo("BIZ_HTTP_503");
    assertThat(f.reviewReason())
        .as("the person must see why the PAYED stage is stuck, not the old PAYING reason")
        .isEqualTo("RETRY_BUDGET_SPENT:BIZ_HTTP_503");
  }

  @Test
  void scannerPagesThroughEveryDueFlowAndStartsEachRoundFromIdZero() {
    EngineConfig c = EngineConfig.compressed();
    h =
        EngineHarness.fresh(
            new EngineConfig(
                c.lease(),
                c.backoffBase(),
                c.backoffCap(),
                c.retryBudget(),
                c.escalatedInterval(),
                c.deadlineGrace(),
                2, // pages of two
                c.scanInterval()));
    for (long id = 1; id <= 5; id++) {
      h.business.script(trade(id), Fulfil.NEVER);
      h.start(goal("R:page:" + id), DEADLINE);
    }

    // Every round claims exactly the flows due at that moment, over as many pages as it takes,
    // whatever their ids: the cursor lives within one round only.
    int rounds = 0;
    int multiPage = 0;
    while (h.clock.instant().isBefore(T0.plusMillis(1_500))) {
      long due =
          h.flowIds().stream()
              .filter(id -> !h.flow(id).nextRetryTime().isAfter(h.clock.instant()))
              .count();
      assertThat(h.scan()).as("round %d at %s", rounds, h.clock.instant()).isEqualTo(due);
      multiPage += due > 2 ? 1 : 0;
      rounds++;
      h.clock.advance(Duration.ofMillis(5));
    }
    assertThat(multiPage).as("rounds that needed more than one page").isPositive();
    h.clock.set(DEADLINE.plus(GRACE).plus(Duration.ofSeconds(5)));
    assertThat(h.scan()).isEqualTo(5);
    assertThat(h.flowIds()).allSatisfy(id -> assertThat(h.flow(id).status()).isEqualTo(REFUNDED));
  }

  private void driveUntilEscalated(FlowStatus stage) {
    for (int i = 0; i < 20 && h.flow(1).reviewState() != ReviewState.ESCALATED; i++) {
      h.clock.set(h.flow(1).nextRetryTime());
      assertThat(h.scan()).isEqualTo(1);
      assertThat(h.flow(1).status()).isEqualTo(stage);
    }
    assertThat(h.flow(1).reviewState()).isEqualTo(ReviewState.ESCALATED);
  }

  private static EngineConfig withRetryBudget(int budget) {
    EngineConfig c = EngineConfig.compressed();
    return new EngineConfig(
        c.lease(),
        c.backoffBase(),
        c.backoffCap(),
        budget,
        c.escalatedInterval(),
        c.deadlineGrace(),
        c.scanBatch(),
        c.scanInterval());
  }
}
