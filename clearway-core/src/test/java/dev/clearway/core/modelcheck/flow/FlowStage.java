package dev.clearway.core.modelcheck.flow;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.ReviewState;
import dev.clearway.core.modelcheck.WorkerState;
import dev.clearway.core.modelcheck.memory.InMemoryFlowStore;
import dev.clearway.core.modelcheck.world.BusinessLedger;
import dev.clearway.core.modelcheck.world.WalletLedger;
import dev.clearway.core.modelcheck.world.WalletLedger.Charge;
import dev.clearway.core.modelcheck.world.WalletLedger.OrderState;
import dev.clearway.core.modelcheck.world.WalletLedger.Refund;
import dev.clearway.core.modelcheck.world.WalletLedger.RefundState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where an exploration starts. {@link #NEW_PAYMENT} is the payment request itself; the others are
 * the row as a worker that crashed right after entering the stage leaves it (its lease expired),
 * with every state of the wallet and the business that can go with it. Exploring each stage from
 * its entry reaches deeper into the stage than one exploration from the request could.
 */
public enum FlowStage {
  NEW_PAYMENT,
  PAYMENT_UNKNOWN,
  CHARGED,
  REFUNDING,
  /** Part of CHARGED: after the deadline and its grace, the goal not granted (a refund is due). */
  PAST_DEADLINE;

  /** The lease token of the worker that crashed; no live worker has it. */
  static final String CRASHED = "W0#1/0/1";

  private static final OrderNumbers NUMBERS = OrderNumbers.derive(FlowRig.GOAL.userId(), 1);
  private static final Instant BEFORE_DEADLINE = FlowRig.T0.plusSeconds(10);
  private static final Instant AFTER_GRACE = FlowRig.T0.plusSeconds(35);

  List<FlowState> initial(List<WorkerState> workers) {
    List<FlowState> states = new ArrayList<>();
    switch (this) {
      case NEW_PAYMENT -> states.add(request(workers));
      case PAYMENT_UNKNOWN -> {
        for (WalletLedger wallet : unknownCharges()) {
          states.add(
              state(
                  FlowStatus.PAYING,
                  1,
                  wallet,
                  BusinessLedger.notGranted(),
                  BEFORE_DEADLINE,
                  workers));
        }
      }
      case CHARGED -> {
        for (Instant now : List.of(BEFORE_DEADLINE, AFTER_GRACE)) {
          for (BusinessLedger biz : businesses(true)) {
            states.add(state(FlowStatus.PAYED, 2, charged(Map.of()), biz, now, workers));
          }
        }
      }
      case PAST_DEADLINE ->
          states.add(
              state(
                  FlowStatus.PAYED,
                  2,
                  charged(Map.of()),
                  BusinessLedger.notGranted(),
                  AFTER_GRACE,
                  workers));
      case REFUNDING -> {
        for (Map<String, Refund> refunds : refunds()) {
          for (BusinessLedger biz : businesses(false)) {
            states.add(state(FlowStatus.REFUNDING, 3, charged(refunds), biz, AFTER_GRACE, workers));
          }
        }
      }
    }
    return states;
  }

  /** Nothing stored yet; the first worker sends the payment request. */
  private static FlowState request(List<WorkerState> workers) {
    List<WorkerState> first = new ArrayList<>(workers);
    first.set(0, first.get(0).start(FlowRig.START));
    return new FlowState(
        InMemoryFlowStore.Snapshot.empty(),
        WalletLedger.empty(),
        BusinessLedger.notGranted(),
        FlowRig.T0,
        List.copyOf(first),
        0);
  }

  /** What the wallet may hold for an order whose payment call got no clear answer. */
  private static List<WalletLedger> unknownCharges() {
    List<WalletLedger> all = new ArrayList<>();
    all.add(WalletLedger.empty());
    for (OrderState s : List.of(OrderState.PROCESSING, OrderState.CHARGED, OrderState.DECLINED)) {
      Charge charge = new Charge(s, 1_000, s == OrderState.CHARGED ? 1 : 0);
      all.add(new WalletLedger(Map.of(NUMBERS.tradeOrderNo(), charge), Map.of()));
    }
    return all;
  }

  private static List<BusinessLedger> businesses(boolean mayBeOwned) {
    List<BusinessLedger> all = new ArrayList<>();
    all.add(BusinessLedger.notGranted());
    all.add(new BusinessLedger(BusinessLedger.OTHER_ORDER, true));
    if (mayBeOwned) {
      all.add(new BusinessLedger(NUMBERS.tradeOrderNo(), false));
    }
    return all;
  }

  private static List<Map<String, Refund>> refunds() {
    List<Map<String, Refund>> all = new ArrayList<>();
    all.add(Map.of());
    for (RefundState s : RefundState.values()) {
      int executed = s == RefundState.REFUNDED ? 1 : 0;
      all.add(
          Map.of(NUMBERS.refundOrderNo(), new Refund(s, NUMBERS.tradeOrderNo(), 1_000, executed)));
    }
    return all;
  }

  private static WalletLedger charged(Map<String, Refund> refunds) {
    return new WalletLedger(
        Map.of(NUMBERS.tradeOrderNo(), new Charge(OrderState.CHARGED, 1_000, 1)), refunds);
  }

  private static FlowState state(
      FlowStatus status,
      long version,
      WalletLedger wallet,
      BusinessLedger business,
      Instant now,
      List<WorkerState> workers) {
    PayFlow row =
        new PayFlow(
            FlowRig.FLOW_ID,
            FlowRig.GOAL,
            1,
            NUMBERS.tradeOrderNo(),
            NUMBERS.refundOrderNo(),
            status,
            version,
            FlowRig.PAYMENT.amount(),
            FlowRig.PAYMENT.currency(),
            FlowRig.PAYMENT.bizDeadline(),
            now,
            0,
            null,
            ReviewState.NONE,
            null,
            CRASHED,
            FlowRig.T0,
            FlowRig.T0,
            null);
    return new FlowState(
        new InMemoryFlowStore.Snapshot(Map.of(row.id(), row), 1),
        wallet,
        business,
        now,
        workers,
        0);
  }
}
