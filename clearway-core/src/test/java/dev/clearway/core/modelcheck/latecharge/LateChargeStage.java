package dev.clearway.core.modelcheck.latecharge;

import dev.clearway.core.latecharge.domain.LateChargeCheck;
import dev.clearway.core.latecharge.domain.LateChargeStatus;
import dev.clearway.core.latecharge.domain.SuspicionSource;
import dev.clearway.core.modelcheck.WorkerState;
import dev.clearway.core.modelcheck.memory.InMemoryLateChargeStore;
import dev.clearway.core.modelcheck.memory.InMemoryRefundStore;
import dev.clearway.core.modelcheck.world.WalletLedger;
import dev.clearway.core.modelcheck.world.WalletLedger.Charge;
import dev.clearway.core.modelcheck.world.WalletLedger.OrderState;
import dev.clearway.core.modelcheck.world.WalletLedger.Refund;
import dev.clearway.core.modelcheck.world.WalletLedger.RefundState;
import dev.clearway.core.refund.domain.NewRefund;
import dev.clearway.core.refund.domain.RefundNumbers;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where a late-charge exploration starts: a suspicion just recorded (PENDING, due), with every
 * state the wallet may hold for the closed flow's order; or a charge confirmed by a worker that
 * crashed (its lease expired) before, or after, its LATE_CHARGE refund was created.
 */
public enum LateChargeStage {
  SUSPECTED,
  CONFIRMED;

  /** The lease token of the worker that crashed; no live worker has it. */
  static final String CRASHED = "W0#1/0/1";

  private static final Instant NOW = LateChargeRig.T0.plusSeconds(60);

  List<LateChargeModelState> initial(List<WorkerState> workers) {
    List<LateChargeModelState> states = new ArrayList<>();
    String trade = LateChargeRig.NUMBERS.tradeOrderNo();
    if (this == SUSPECTED) {
      List<WalletLedger> wallets = new ArrayList<>(List.of(WalletLedger.empty()));
      for (OrderState s : OrderState.values()) {
        Charge c = new Charge(s, LateChargeRig.AMOUNT, s == OrderState.CHARGED ? 1 : 0);
        wallets.add(new WalletLedger(Map.of(trade, c), Map.of()));
      }
      for (WalletLedger wallet : wallets) {
        states.add(
            new LateChargeModelState(
                checks(LateChargeStatus.PENDING, 0, null),
                InMemoryRefundStore.Snapshot.empty(),
                wallet,
                NOW,
                workers));
      }
      return states;
    }
    WalletLedger charged = WalletLedger.charged(trade, LateChargeRig.AMOUNT);
    String refundNo = RefundNumbers.of(trade, 1);
    states.add(
        new LateChargeModelState(
            checks(LateChargeStatus.CHARGE_CONFIRMED, 1, CRASHED),
            InMemoryRefundStore.Snapshot.empty(),
            charged,
            NOW,
            workers));
    for (RefundStatus status : List.of(RefundStatus.PENDING, RefundStatus.PROCESSING)) {
      List<WalletLedger> wallets = new ArrayList<>(List.of(charged));
      if (status == RefundStatus.PROCESSING) {
        Refund done = new Refund(RefundState.REFUNDED, trade, LateChargeRig.AMOUNT, 1);
        wallets.add(new WalletLedger(charged.orders(), Map.of(refundNo, done)));
      }
      for (WalletLedger wallet : wallets) {
        states.add(
            new LateChargeModelState(
                checks(LateChargeStatus.CHARGE_CONFIRMED, 1, CRASHED),
                refunds(status),
                wallet,
                NOW,
                workers));
      }
    }
    return states;
  }

  private static InMemoryLateChargeStore.Snapshot checks(
      LateChargeStatus status, long version, String owner) {
    LateChargeCheck check =
        new LateChargeCheck(
            LateChargeRig.CHECK_ID,
            LateChargeRig.CLOSED.id(),
            LateChargeRig.NUMBERS.tradeOrderNo(),
            SuspicionSource.CALLBACK,
            status,
            version,
            NOW,
            0,
            null,
            null,
            null,
            owner,
            LateChargeRig.T0,
            LateChargeRig.T0);
    return new InMemoryLateChargeStore.Snapshot(Map.of(check.id(), check), 1);
  }

  /** The LATE_CHARGE refund the crashed worker created (and, if PROCESSING, sent). */
  private static InMemoryRefundStore.Snapshot refunds(RefundStatus status) {
    NewRefund request = NewRefund.lateCharge(LateChargeRig.CLOSED.id(), LateChargeRig.AMOUNT);
    String trade = LateChargeRig.NUMBERS.tradeOrderNo();
    RefundOrder row =
        new RefundOrder(
            1,
            LateChargeRig.CLOSED.id(),
            LateChargeRig.GOAL.merchant(),
            1,
            trade,
            RefundNumbers.of(trade, 1),
            LateChargeRig.AMOUNT,
            "CNY",
            request.reason(),
            request.requestedBy(),
            status,
            status == RefundStatus.PENDING ? 0 : 1,
            NOW,
            0,
            null,
            CRASHED,
            LateChargeRig.T0,
            LateChargeRig.T0);
    return new InMemoryRefundStore.Snapshot(
        Map.of(
            1L,
            new InMemoryRefundStore.Stored(row, request.idempotencyKey(), request.requestHash())),
        1);
  }
}
