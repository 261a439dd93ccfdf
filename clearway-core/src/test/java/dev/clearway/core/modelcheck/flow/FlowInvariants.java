package dev.clearway.core.modelcheck.flow;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.Transitions;
import dev.clearway.core.modelcheck.memory.LeaseRule;
import dev.clearway.core.modelcheck.memory.Write;
import dev.clearway.core.modelcheck.world.BusinessLedger;
import dev.clearway.core.modelcheck.world.WalletLedger;
import dev.clearway.core.review.CommandKind;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules every step of the flow machine must keep: money (at most one charge per trade order
 * number and one refund per refund number; nothing refunded once BIZ_SUCCESS; REFUNDED only for a
 * charge whose goal the attempt does not own; no refund of a goal granted to the attempt; no charge
 * left behind a PAY_FAIL or CLOSED), the state machine (legal edges, terminal rows never change and
 * are neither frozen nor held by a lease), the lease (no worker writes a row whose lease it does
 * not hold) and progress (every non-terminal row has someone who can move it).
 */
final class FlowInvariants {
  private FlowInvariants() {}

  /** What one step broke: {@code writes} are the rows it changed, with their writers. */
  static List<String> step(
      FlowState before, FlowState after, List<Write> writes, LeaseRule leaseRule) {
    List<String> broken = new ArrayList<>();
    Write.requireLease(writes, leaseRule, broken);
    for (PayFlow old : before.store().rows().values()) {
      PayFlow now = after.store().rows().get(old.id());
      machine(old, now, broken);
    }
    after.flow().ifPresent(f -> money(f, after.wallet(), after.business(), broken));
    return broken;
  }

  private static void machine(PayFlow old, PayFlow now, List<String> broken) {
    if (now == null) {
      broken.add("row #" + old.id() + " disappeared");
      return;
    }
    if (old.isTerminal() && !now.equals(old)) {
      broken.add(
          "terminal row changed: "
              + old.status()
              + " v"
              + old.version()
              + " -> "
              + now.status()
              + " v"
              + now.version()
              + (now.isFrozen() ? " FROZEN" : "")
              + " lease="
              + now.leaseOwner());
    }
    if (now.status() != old.status()
        && (!Transitions.isLegal(old.status(), now.status())
            || now.version() != old.version() + 1)) {
      broken.add("illegal edge " + old.status() + " -> " + now.status());
    }
    if (now.version() < old.version()) {
      broken.add("version went back from " + old.version() + " to " + now.version());
    }
  }

  private static void money(
      PayFlow f, WalletLedger wallet, BusinessLedger business, List<String> broken) {
    String trade = f.tradeOrderNo();
    String refund = f.refundOrderNo();
    if (wallet.charges(trade) > 1) {
      broken.add(trade + " charged " + wallet.charges(trade) + " times");
    }
    if (wallet.refundsOf(refund) > 1) {
      broken.add(refund + " refunded " + wallet.refundsOf(refund) + " times");
    }
    if (f.status() == FlowStatus.BIZ_SUCCESS && wallet.refundsOf(refund) > 0) {
      broken.add("BIZ_SUCCESS refunded");
    }
    if (f.status() == FlowStatus.REFUNDED
        && (!wallet.isCharged(trade) || business.isOwnedBy(trade))) {
      broken.add("REFUNDED without a charge, or with the goal granted to this order");
    }
    if (wallet.refundsOf(refund) > 0 && business.isOwnedBy(trade)) {
      broken.add("refund of a goal granted to this order");
    }
    if (f.status().isDefiniteFailure() && wallet.isCharged(trade)) {
      broken.add(f.status() + " with the charge kept at the wallet");
    }
  }

  /**
   * A terminal row is never frozen nor leased; a non-terminal row must have someone to move it: a
   * worker, the scanner, or a person.
   */
  static List<String> state(FlowState s) {
    PayFlow f = s.flow().orElse(null);
    if (f != null && f.isTerminal() && (f.isFrozen() || f.leaseOwner() != null)) {
      return List.of(
          "terminal " + f.status() + (f.isFrozen() ? " frozen" : " held by " + f.leaseOwner()));
    }
    if (f == null || f.isTerminal() || s.anyBusy()) {
      return List.of();
    }
    if (!f.isFrozen() && f.nextRetryTime() != null) {
      return List.of(); // the scanner claims it once next_retry_time (or the lease) has passed
    }
    if (f.isFrozen() && CommandKind.RESUME.check(f).isAllowed()) {
      return List.of(); // a person can resume it
    }
    return List.of("dead end: " + f.status() + " that no worker, scanner or person can move");
  }
}
