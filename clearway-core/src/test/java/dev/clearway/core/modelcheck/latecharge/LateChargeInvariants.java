package dev.clearway.core.modelcheck.latecharge;

import dev.clearway.core.latecharge.domain.LateChargeCheck;
import dev.clearway.core.latecharge.domain.LateChargeStatus;
import dev.clearway.core.latecharge.domain.LateChargeTransitions;
import dev.clearway.core.modelcheck.memory.InMemoryRefundStore;
import dev.clearway.core.modelcheck.memory.LeaseRule;
import dev.clearway.core.modelcheck.memory.Write;
import dev.clearway.core.modelcheck.world.WalletLedger;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules of the late-charge machine: only the wallet's own answer decides (CHARGE_CONFIRMED and
 * REFUND_REQUESTED only for a charged order, NO_CHARGE only for one the wallet never charged, never
 * NOT_APPLICABLE for a flow that ended unpaid); one LATE_CHARGE refund per flow, REFUND_REQUESTED
 * naming it; each refund number refunded at most once and never more than was charged; legal edges
 * only, terminal checks never change nor stay leased; no write by a worker without its lease; a
 * check that has not ended is always due again (never dropped).
 */
final class LateChargeInvariants {
  private LateChargeInvariants() {}

  static List<String> step(
      LateChargeModelState before, LateChargeModelState after, List<Write> writes, LeaseRule rule) {
    List<String> broken = new ArrayList<>();
    Write.requireLease(writes, rule, broken);
    machine(before.check(), after.check(), broken);
    facts(after, broken);
    return broken;
  }

  private static void machine(LateChargeCheck old, LateChargeCheck now, List<String> broken) {
    if (old.isTerminal() && !now.equals(old)) {
      broken.add("terminal check changed: " + old.status() + " -> " + now.status());
    }
    if (now.status() != old.status()
        && (!LateChargeTransitions.isLegal(old.status(), now.status())
            || now.version() != old.version() + 1)) {
      broken.add("illegal check edge " + old.status() + " -> " + now.status());
    }
  }

  private static void facts(LateChargeModelState s, List<String> broken) {
    LateChargeCheck c = s.check();
    WalletLedger wallet = s.wallet();
    String trade = c.tradeOrderNo();
    boolean charged = wallet.isCharged(trade);
    switch (c.status()) {
      case CHARGE_CONFIRMED, REFUND_REQUESTED -> {
        if (!charged) {
          broken.add(c.status() + " without a charge at the wallet");
        }
      }
      case NO_CHARGE -> {
        if (wallet.charges(trade) > 0) {
          broken.add("NO_CHARGE although the wallet charged " + trade);
        }
      }
      case NOT_APPLICABLE -> broken.add("NOT_APPLICABLE for a flow that ended unpaid");
      case PENDING, MANUAL -> {}
    }
    List<RefundOrder> refunds =
        s.refunds().rows().values().stream().map(InMemoryRefundStore.Stored::row).toList();
    if (refunds.size() > 1) {
      broken.add(refunds.size() + " LATE_CHARGE refunds of one flow");
    }
    if (c.status() == LateChargeStatus.REFUND_REQUESTED
        && (c.refundId() == null || refunds.stream().noneMatch(r -> r.id() == c.refundId()))) {
      broken.add("REFUND_REQUESTED without its refund order");
    }
    for (RefundOrder r : refunds) {
      int times = wallet.refundsOf(r.refundNo());
      if (times > 1) {
        broken.add(r.refundNo() + " refunded " + times + " times");
      }
      if (r.status() == RefundStatus.SUCCESS && times == 0) {
        broken.add("refund SUCCESS without a refund at the wallet");
      }
      if ((r.status() == RefundStatus.FAIL || r.status() == RefundStatus.CLOSED) && times > 0) {
        broken.add("refund " + r.status() + " although the wallet refunded " + r.refundNo());
      }
    }
    if (wallet.refundedAmount(trade) > (charged ? wallet.orders().get(trade).amount() : 0)) {
      broken.add("refunded " + wallet.refundedAmount(trade) + " of " + trade);
    }
  }

  /**
   * A terminal check or refund holds no lease; an open check is always due again (its
   * next_check_time is set), and an open refund too, once no worker is at work.
   */
  static List<String> state(LateChargeModelState s) {
    List<String> broken = new ArrayList<>();
    LateChargeCheck c = s.check();
    if (c.isTerminal() && c.leaseOwner() != null) {
      broken.add("terminal check " + c.status() + " held by " + c.leaseOwner());
    }
    if (!c.isTerminal() && c.nextCheckTime() == null) {
      broken.add("dead end: check " + c.status() + " never due again");
    }
    for (InMemoryRefundStore.Stored stored : s.refunds().rows().values()) {
      RefundOrder r = stored.row();
      if (r.isTerminal() && r.leaseOwner() != null) {
        broken.add("terminal refund " + r.status() + " held by " + r.leaseOwner());
      }
      if (!r.isTerminal() && r.nextRetryTime() == null && !s.anyBusy()) {
        broken.add("dead end: refund " + r.status() + " that no worker or scanner can move");
      }
    }
    return broken;
  }
}
