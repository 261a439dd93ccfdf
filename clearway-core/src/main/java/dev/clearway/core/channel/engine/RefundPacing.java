package dev.clearway.core.channel.engine;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.PaymentOrder;
import dev.clearway.core.channel.policy.Operation;
import dev.clearway.core.channel.policy.PolicyRule;
import dev.clearway.core.channel.port.RecoveryPolicies;

/**
 * The calls per second of refunds (sends and queries, flow refunds and compensations) to one
 * account: the {@code query_qps} of the recovery policy's refund rule for the charged attempt's
 * channel and payment method (the policy version the attempt's trade order pins), or {@link
 * #DEFAULT_QPS} when the policy has no refund rule for it.
 */
final class RefundPacing {

  /** Refund calls per second of an account without a refund rule. */
  static final int DEFAULT_QPS = 20;

  private RefundPacing() {}

  /** The refund calls per second to the account of {@code charged}, a PSP of {@code channel}. */
  static int qps(ChannelContext ctx, Attempt charged, String channel) {
    String family =
        ctx.stores()
            .orders()
            .order(charged.tradeOrderNo())
            .map(PaymentOrder::paymentMethod)
            .orElse("");
    return qps(ctx.policies(), charged.tradeOrderNo(), channel, family);
  }

  /** As above, for the order {@code tradeOrderNo} paid by {@code paymentMethod} (its family). */
  static int qps(
      RecoveryPolicies policies, String tradeOrderNo, String channel, String paymentMethod) {
    return policies
        .rule(policies.versionFor(tradeOrderNo), channel, paymentMethod, Operation.REFUND)
        .map(PolicyRule::queryQps)
        .filter(qps -> qps > 0)
        .orElse(DEFAULT_QPS);
  }
}
