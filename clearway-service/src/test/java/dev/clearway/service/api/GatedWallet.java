package dev.clearway.service.api;

import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.flow.port.WalletGateway;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.LedgerEntry;
import dev.clearway.sim.SimWallet;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The simulated wallet (no faults, idempotent by trade order number, with a ledger of executed
 * charges), plus a gate per user: the first pay call of a gated user blocks until the test releases
 * it. Counts pay calls per user, so a test can tell how many times the wallet was asked to charge.
 */
final class GatedWallet implements WalletGateway {
  private final SimWallet sim;
  private final Map<Long, Gate> gates = new ConcurrentHashMap<>();
  private final Map<Long, AtomicInteger> payCalls = new ConcurrentHashMap<>();

  GatedWallet(Clock clock) {
    this.sim = new SimWallet(FaultPlan.none(), clock);
  }

  /** Blocks the next pay call of {@code userId} until {@link Gate#release()}. */
  static final class Gate {
    private final AtomicBoolean armed = new AtomicBoolean(true);
    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);

    /** Waits until the gated pay call is inside the wallet. */
    void awaitEntered() throws InterruptedException {
      if (!entered.await(10, TimeUnit.SECONDS)) {
        throw new AssertionError("the wallet was never called for the gated user");
      }
    }

    void release() {
      released.countDown();
    }
  }

  Gate gate(long userId) {
    Gate gate = new Gate();
    gates.put(userId, gate);
    return gate;
  }

  int payCalls(long userId) {
    AtomicInteger n = payCalls.get(userId);
    return n == null ? 0 : n.get();
  }

  /** Charges the wallet actually executed for this trade order number. */
  long charges(String tradeOrderNo) {
    return sim.ledger().stream()
        .filter(e -> e.kind() == LedgerEntry.Kind.CHARGE)
        .filter(e -> e.tradeOrderNo().equals(tradeOrderNo))
        .count();
  }

  /** Refunds the wallet actually executed against this trade order number. */
  long refunds(String tradeOrderNo) {
    return sim.ledger().stream()
        .filter(e -> e.kind() == LedgerEntry.Kind.REFUND)
        .filter(e -> e.tradeOrderNo().equals(tradeOrderNo))
        .count();
  }

  /** Every charge executed so far. */
  long charges() {
    return sim.ledger().stream().filter(e -> e.kind() == LedgerEntry.Kind.CHARGE).count();
  }

  /** Releases every gate (so that no advance stays blocked after a test). */
  void releaseAll() {
    gates.values().forEach(Gate::release);
  }

  @Override
  public WalletResult pay(ChargeRequest request) {
    payCalls.computeIfAbsent(request.userId(), k -> new AtomicInteger()).incrementAndGet();
    Gate gate = gates.get(request.userId());
    if (gate != null && gate.armed.compareAndSet(true, false)) {
      gate.entered.countDown();
      try {
        if (!gate.released.await(15, TimeUnit.SECONDS)) {
          return WalletResult.unknown("TEST_GATE_NEVER_RELEASED");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return WalletResult.unknown("INTERRUPTED");
      }
    }
    return sim.pay(request);
  }

  @Override
  public WalletResult queryPayment(String tradeOrderNo) {
    return sim.queryPayment(tradeOrderNo);
  }

  @Override
  public WalletResult closePayment(String tradeOrderNo) {
    return sim.closePayment(tradeOrderNo);
  }

  @Override
  public WalletResult refund(RefundRequest request) {
    return sim.refund(request);
  }

  @Override
  public WalletResult queryRefund(String refundOrderNo) {
    return sim.queryRefund(refundOrderNo);
  }
}
