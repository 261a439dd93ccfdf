package dev.clearway.core.modelcheck.refund;

import dev.clearway.core.modelcheck.WorkerState;
import dev.clearway.core.modelcheck.memory.InMemoryRefundStore;
import dev.clearway.core.modelcheck.world.WalletLedger;
import dev.clearway.core.modelcheck.world.WalletLedger.Charge;
import dev.clearway.core.modelcheck.world.WalletLedger.OrderState;
import dev.clearway.core.modelcheck.world.WalletLedger.Refund;
import dev.clearway.core.modelcheck.world.WalletLedger.RefundState;
import dev.clearway.core.refund.domain.RefundNumbers;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where a refund exploration starts: the merchant's request itself, or a refund a crashed worker
 * left PROCESSING (sent or about to be), or one left ABNORMAL after its budget, each with every
 * state the wallet may hold for its number.
 */
public enum RefundStage {
  NEW_REFUND,
  SENT,
  ABNORMAL;

  static final String CRASHED = "W0#1/0/1";
  private static final Instant LATER = RefundRig.T0.plusSeconds(10);

  List<RefundModelState> initial(List<WorkerState> workers) {
    WalletLedger charged = WalletLedger.charged(RefundRig.NUMBERS.tradeOrderNo(), 1_000);
    List<RefundModelState> states = new ArrayList<>();
    if (this == NEW_REFUND) {
      List<WorkerState> first = new ArrayList<>(workers);
      first.set(0, first.get(0).start(RefundRig.REQUEST));
      states.add(
          new RefundModelState(
              InMemoryRefundStore.Snapshot.empty(), charged, RefundRig.T0, List.copyOf(first)));
      return states;
    }
    RefundStatus status = this == SENT ? RefundStatus.PROCESSING : RefundStatus.ABNORMAL;
    for (WalletLedger wallet : wallets()) {
      states.add(new RefundModelState(rows(status), wallet, LATER, workers));
    }
    return states;
  }

  private static InMemoryRefundStore.Snapshot rows(RefundStatus status) {
    String trade = RefundRig.NUMBERS.tradeOrderNo();
    boolean abnormal = status == RefundStatus.ABNORMAL;
    RefundOrder row =
        new RefundOrder(
            1,
            1,
            RefundRig.GOAL.merchant(),
            1,
            trade,
            RefundNumbers.of(trade, 1),
            600,
            "CNY",
            "damaged",
            RefundRig.FIRST.requestedBy(),
            status,
            abnormal ? 2 : 1,
            LATER,
            0,
            null,
            abnormal ? null : CRASHED,
            RefundRig.T0,
            RefundRig.T0);
    InMemoryRefundStore.Stored stored =
        new InMemoryRefundStore.Stored(
            row, RefundRig.FIRST.idempotencyKey(), RefundRig.FIRST.requestHash());
    return new InMemoryRefundStore.Snapshot(Map.of(1L, stored), 1);
  }

  private static List<WalletLedger> wallets() {
    String trade = RefundRig.NUMBERS.tradeOrderNo();
    Map<String, Charge> orders = Map.of(trade, new Charge(OrderState.CHARGED, 1_000, 1));
    List<WalletLedger> all = new ArrayList<>();
    all.add(new WalletLedger(orders, Map.of()));
    for (RefundState s : RefundState.values()) {
      Refund refund = new Refund(s, trade, 600, s == RefundState.REFUNDED ? 1 : 0);
      all.add(new WalletLedger(orders, Map.of(RefundNumbers.of(trade, 1), refund)));
    }
    return all;
  }
}
