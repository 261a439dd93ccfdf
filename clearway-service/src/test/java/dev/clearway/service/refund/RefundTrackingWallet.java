package dev.clearway.service.refund;

import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.flow.port.WalletGateway;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.LedgerEntry;
import dev.clearway.sim.SimWallet;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The simulated wallet (idempotent by number, cumulative refund limit, a ledger of what it
 * executed) behind a thin transport that records every refund request, can lose refund responses,
 * and rejects every charge of {@link #REJECTED_AMOUNT} (a payment that ends PAY_FAIL).
 */
final class RefundTrackingWallet implements WalletGateway {
  static final long REJECTED_AMOUNT = 13;

  private final SimWallet sim;
  private final List<RefundRequest> refundRequests = new ArrayList<>();
  private final AtomicInteger responsesToLose = new AtomicInteger();
  private final AtomicInteger queriesToLose = new AtomicInteger();
  private volatile CountDownLatch hold;
  private final CountDownLatch held = new CountDownLatch(1);

  RefundTrackingWallet(Clock clock) {
    this.sim = new SimWallet(FaultPlan.none(), clock);
  }

  /**
   * Holds every refund call inside the wallet until the returned latch is counted down; {@link
   * #awaitHeld()} waits until one is held.
   */
  CountDownLatch holdRefunds() {
    hold = new CountDownLatch(1);
    return hold;
  }

  void awaitHeld() throws InterruptedException {
    if (!held.await(10, TimeUnit.SECONDS)) {
      throw new AssertionError("no refund call reached the wallet");
    }
  }

  /** The next {@code n} refund calls execute at the wallet and answer UNKNOWN (TIMEOUT). */
  void loseRefundResponses(int n) {
    responsesToLose.set(n);
  }

  /** The next {@code n} payment queries answer UNKNOWN (TIMEOUT) without asking the wallet. */
  void loseQueryPayments(int n) {
    queriesToLose.set(n);
  }

  /**
   * Forgets the recorded refund requests (between tests: the database is emptied, the simulated
   * wallet keeps its orders, whose numbers stay unique because every test pays as a new user).
   */
  synchronized void forgetRequests() {
    refundRequests.clear();
    responsesToLose.set(0);
    queriesToLose.set(0);
  }

  synchronized List<RefundRequest> refundRequests() {
    return List.copyOf(refundRequests);
  }

  List<LedgerEntry> ledger() {
    return sim.ledger();
  }

  @Override
  public WalletResult pay(ChargeRequest request) {
    if (request.amount() == REJECTED_AMOUNT) {
      return WalletResult.failed("INSUFFICIENT_BALANCE", "w-reject", false);
    }
    return sim.pay(request);
  }

  @Override
  public WalletResult queryPayment(String tradeOrderNo) {
    if (queriesToLose.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      return WalletResult.unknown("TIMEOUT");
    }
    return sim.queryPayment(tradeOrderNo);
  }

  @Override
  public WalletResult closePayment(String tradeOrderNo) {
    return sim.closePayment(tradeOrderNo);
  }

  @Override
  public WalletResult refund(RefundRequest request) {
    synchronized (this) {
      refundRequests.add(request);
    }
    CountDownLatch gate = hold;
    if (gate != null) {
      held.countDown();
      try {
        if (!gate.await(15, TimeUnit.SECONDS)) {
          return WalletResult.unknown("TEST_GATE_NEVER_RELEASED");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return WalletResult.unknown("INTERRUPTED");
      }
    }
    WalletResult truth = sim.refund(request);
    if (responsesToLose.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      return WalletResult.unknown("TIMEOUT");
    }
    return truth;
  }

  @Override
  public WalletResult queryRefund(String refundOrderNo) {
    return sim.queryRefund(refundOrderNo);
  }
}
