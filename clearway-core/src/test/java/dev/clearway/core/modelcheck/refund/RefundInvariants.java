package dev.clearway.core.modelcheck.refund;

import dev.clearway.core.modelcheck.memory.InMemoryRefundStore;
import dev.clearway.core.modelcheck.memory.LeaseRule;
import dev.clearway.core.modelcheck.memory.Write;
import dev.clearway.core.modelcheck.world.WalletLedger;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refund.domain.RefundTransitions;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules of the refund-order machine: at most one refund per refund number at the wallet;
 * SUCCESS only when the wallet refunded that number; FAIL and CLOSED only when it never did (their
 * amount is freed for another refund); never more refunded than charged; legal edges only, terminal
 * rows never change nor stay leased; no write by a worker without the lease; no dead end.
 */
final class RefundInvariants {
  private RefundInvariants() {}

  static List<String> step(
      RefundModelState before, RefundModelState after, List<Write> writes, LeaseRule rule) {
    List<String> broken = new ArrayList<>();
    Write.requireLease(writes, rule, broken);
    for (InMemoryRefundStore.Stored old : before.refunds().rows().values()) {
      InMemoryRefundStore.Stored now = after.refunds().rows().get(old.row().id());
      machine(old.row(), now.row(), broken);
    }
    WalletLedger wallet = after.wallet();
    for (InMemoryRefundStore.Stored s : after.refunds().rows().values()) {
      money(s.row(), wallet, broken);
    }
    String trade = RefundRig.NUMBERS.tradeOrderNo();
    if (wallet.refundedAmount(trade) > wallet.orders().get(trade).amount()) {
      broken.add(
          "refunded "
              + wallet.refundedAmount(trade)
              + " of a charge of "
              + wallet.orders().get(trade).amount());
    }
    return broken;
  }

  private static void machine(RefundOrder old, RefundOrder now, List<String> broken) {
    if (old.isTerminal() && !now.equals(old)) {
      broken.add("terminal refund changed: " + old.status() + " -> " + now.status());
    }
    if (now.status() != old.status()
        && (!RefundTransitions.isLegal(old.status(), now.status())
            || now.version() != old.version() + 1)) {
      broken.add("illegal refund edge " + old.status() + " -> " + now.status());
    }
  }

  private static void money(RefundOrder r, WalletLedger wallet, List<String> broken) {
    int refunds = wallet.refundsOf(r.refundNo());
    if (refunds > 1) {
      broken.add(r.refundNo() + " refunded " + refunds + " times");
    }
    if (r.status() == RefundStatus.SUCCESS && refunds == 0) {
      broken.add("SUCCESS without a refund at the wallet");
    }
    if ((r.status() == RefundStatus.FAIL || r.status() == RefundStatus.CLOSED) && refunds > 0) {
      broken.add(r.status() + " although the wallet refunded " + r.refundNo());
    }
  }

  /**
   * A terminal refund holds no lease; a non-terminal refund must have someone to move it: a worker,
   * or the refund scanner.
   */
  static List<String> state(RefundModelState s) {
    List<String> broken = new ArrayList<>();
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
