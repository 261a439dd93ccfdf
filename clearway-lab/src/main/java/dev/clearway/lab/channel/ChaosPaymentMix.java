package dev.clearway.lab.channel;

import dev.clearway.core.channel.engine.PaymentMethods;
import dev.clearway.sim.FaultPlan;

/**
 * Which payment method each order of the chaos run uses, from the fault plan: a share ({@link
 * #WALLET_SHARE}) pays by wallet (WeChat Pay), the rest by card (Stripe), of which some cards are
 * declined and some settle asynchronously.
 */
final class ChaosPaymentMix {

  /** The share of payments made by wallet (WeChat Pay), the rest by card (Stripe). */
  static final double WALLET_SHARE = 0.4;

  private final FaultPlan plan;

  ChaosPaymentMix(FaultPlan plan) {
    this.plan = plan;
  }

  /** The payment method family of a trade: wallet for a seeded share, card otherwise. */
  String family(String trade) {
    return plan.unit("family", payment(trade), 0) < WALLET_SHARE ? "wallet" : "card";
  }

  /**
   * The payment's number within the run: trade order numbers carry a per-run prefix (so runs can
   * share a database), the rolls must not, or the same seed would mix methods differently.
   */
  static String payment(String trade) {
    return trade.substring(trade.lastIndexOf('_') + 1);
  }

  /** The channel that serves a trade's family: wechat for wallets, stripe for cards. */
  String channel(String trade) {
    return family(trade).equals("wallet") ? "wechat" : "stripe";
  }

  /** The methods the gateway charges with: the wallet, or a card token (declined, async, visa). */
  PaymentMethods methods() {
    return request -> {
      if (family(request.tradeOrderNo()).equals("wallet")) {
        return new PaymentMethods.Choice("wallet", "wallet");
      }
      double u = plan.unit("method", payment(request.tradeOrderNo()), 0);
      String token =
          u < 0.05 ? "pm_card_chargeDeclined" : u < 0.10 ? "pm_card_async" : "pm_card_visa";
      return new PaymentMethods.Choice("card", token);
    };
  }
}
