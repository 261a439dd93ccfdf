package dev.clearway.core.flow.engine;

import dev.clearway.core.channel.engine.PacedRateLimiter;
import dev.clearway.core.channel.port.CallBudget;
import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.flow.port.WalletGateway;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * The plain wallet's calls paced at {@code qps} through a {@link CallBudget} (in-process, or shared
 * by all nodes), as the channel layer paces each PSP account. A call that cannot start in time is
 * not sent and answers {@code UNKNOWN} ({@link PacedRateLimiter#PAST_LEASE}): a worker with a lease
 * never waits past it, one without waits at most {@code maxWait}. UNKNOWN never means failure: the
 * step reschedules and queries by the same number later.
 */
public final class PacedWallet implements WalletGateway {

  /** The budget account of the plain wallet (channel accounts have positive ids). */
  public static final long ACCOUNT = 0L;

  private final WalletGateway wallet;
  private final CallBudget budget;
  private final int qps;
  private final Duration maxWait;
  private final Clock clock;

  public PacedWallet(
      WalletGateway wallet, CallBudget budget, int qps, Duration maxWait, Clock clock) {
    if (qps <= 0) {
      throw new IllegalArgumentException("qps must be positive");
    }
    this.wallet = wallet;
    this.budget = budget;
    this.qps = qps;
    this.maxWait = maxWait;
    this.clock = clock;
  }

  @Override
  public WalletResult pay(ChargeRequest request) {
    return paced(() -> wallet.pay(request));
  }

  @Override
  public WalletResult queryPayment(String tradeOrderNo) {
    return paced(() -> wallet.queryPayment(tradeOrderNo));
  }

  @Override
  public WalletResult closePayment(String tradeOrderNo) {
    return paced(() -> wallet.closePayment(tradeOrderNo));
  }

  @Override
  public WalletResult refund(RefundRequest request) {
    return paced(() -> wallet.refund(request));
  }

  @Override
  public WalletResult queryRefund(String refundOrderNo) {
    return paced(() -> wallet.queryRefund(refundOrderNo));
  }

  @Override
  public WalletResult closePayment(String tradeOrderNo, Instant leaseUntil) {
    return leased(leaseUntil, () -> wallet.closePayment(tradeOrderNo, leaseUntil));
  }

  @Override
  public WalletResult refund(RefundRequest request, Instant leaseUntil) {
    return leased(leaseUntil, () -> wallet.refund(request, leaseUntil));
  }

  @Override
  public WalletResult queryRefund(String refundOrderNo, Instant leaseUntil) {
    return leased(leaseUntil, () -> wallet.queryRefund(refundOrderNo, leaseUntil));
  }

  private WalletResult paced(Supplier<WalletResult> call) {
    return budget.tryAcquire(ACCOUNT, qps, maxWait)
        ? call.get()
        : WalletResult.unknown(PacedRateLimiter.PAST_LEASE);
  }

  private WalletResult leased(Instant leaseUntil, Supplier<WalletResult> call) {
    if (leaseUntil == null) {
      return paced(call);
    }
    return budget.acquireWithin(ACCOUNT, qps, leaseUntil, clock)
        ? call.get()
        : WalletResult.unknown(PacedRateLimiter.PAST_LEASE);
  }
}
