package dev.clearway.core.channel.engine;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.port.AttemptStore;
import dev.clearway.core.channel.port.ChannelRefundStore;
import dev.clearway.core.channel.port.ChannelRefundStore.ChannelRefund;
import dev.clearway.core.channel.spi.PspAdapter;
import dev.clearway.core.channel.spi.RefundCall;
import dev.clearway.core.channel.spi.RefundOutcome;
import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.flow.port.WalletGateway.RefundRequest;
import java.time.Instant;
import java.util.Optional;

/**
 * Refunds of the flow engine, sent to the channel account of the charged attempt (a refund is bound
 * to the original channel, whatever the circuit breaker says). The flow's refund number maps to a
 * provider refund number; a refund the PSP CLOSED gets a new one (WeChat semantics). The caller's
 * lease end bounds the pacing wait: a call that cannot start before it is not sent and answers
 * UNKNOWN, so the worker reschedules and queries by the same number later.
 */
final class ChannelRefunds {

  private final ChannelContext ctx;
  private final AttemptStore attemptStore;
  private final ChannelRefundStore refunds;

  ChannelRefunds(ChannelContext ctx) {
    this.ctx = ctx;
    this.attemptStore = ctx.stores().attempts();
    this.refunds = ctx.stores().refunds();
  }

  WalletResult refund(RefundRequest request, Instant leaseUntil) {
    Optional<Attempt> charged =
        ChannelGateway.firstSucceeded(attemptStore.attempts(request.tradeOrderNo()));
    if (charged.isEmpty()) {
      return WalletResult.failed("NOT_CHARGED", null, false);
    }
    ChannelRefund refund =
        refunds.channelRefund(
            request.refundOrderNo(), charged.get().id(), request.amount(), ctx.clock().instant());
    return send(refund, charged.get(), false, leaseUntil);
  }

  WalletResult query(String refundOrderNo, Instant leaseUntil) {
    Optional<ChannelRefund> refund = refunds.findChannelRefund(refundOrderNo);
    if (refund.isEmpty()) {
      return WalletResult.noRecord(null);
    }
    Attempt attempt = attemptStore.attempt(refund.get().attemptId()).orElseThrow();
    return send(refund.get(), attempt, true, leaseUntil);
  }

  private WalletResult send(
      ChannelRefund refund, Attempt attempt, boolean query, Instant leaseUntil) {
    PspAdapter adapter = ctx.adapters().adapter(attempt.channelAccountId());
    RefundCall call =
        new RefundCall(
            refund.providerRefundNo(),
            attempt.ref(),
            refund.amount(),
            attempt.money().amount(),
            attempt.money().currency());
    if (!ctx.limiter()
        .acquireWithin(
            attempt.channelAccountId(), refundQps(attempt, adapter), leaseUntil, ctx.clock())) {
      return WalletResult.unknown(PacedRateLimiter.PAST_LEASE);
    }
    RefundOutcome outcome = query ? adapter.queryRefund(call) : adapter.refund(call);
    String requestId = outcome.requestId();
    return switch (outcome.state()) {
      case SUCCEEDED -> WalletResult.success(requestId);
      case PROCESSING -> WalletResult.processing(requestId);
      case UNKNOWN -> WalletResult.unknown(orDefault(outcome.errorCode(), "REFUND_UNKNOWN"));
      case NOT_FOUND -> WalletResult.noRecord(requestId);
      case REJECTED ->
          WalletResult.failed(orDefault(outcome.errorCode(), "REFUND_REJECTED"), requestId, true);
      case ABNORMAL -> WalletResult.failed("REFUND_ABNORMAL", requestId, false);
      case CLOSED -> {
        // The number is spent at the PSP: the next send uses a new one. CAS on the generation,
        // so two callers cannot skip a number.
        refunds.nextRefundGeneration(refund, ctx.clock().instant());
        yield WalletResult.failed("REFUND_CLOSED", requestId, true);
      }
    };
  }

  private static String orDefault(String s, String fallback) {
    return s == null ? fallback : s;
  }

  private int refundQps(Attempt attempt, PspAdapter adapter) {
    return RefundPacing.qps(ctx, attempt, adapter.channel());
  }
}
