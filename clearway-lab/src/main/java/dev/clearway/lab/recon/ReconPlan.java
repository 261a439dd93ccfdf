package dev.clearway.lab.recon;

import dev.clearway.sim.FaultPlan;

/**
 * What the reconciliation chaos run does with each payment, from the seed: the method it pays with
 * (a WeChat Pay-style wallet or a Stripe-style card) and the one difference, if any, the PSP
 * injects into it. Only differences the statement alone reveals are injected; every other payment
 * (and after-sales refund) must reconcile without a difference.
 */
final class ReconPlan {

  /** The share of payments made by wallet; the rest by card. */
  static final double WALLET_SHARE = 0.5;

  /** What happens to one payment. */
  enum Fate {
    /** Paid and fulfilled; nothing injected. */
    CLEAN,
    /** Wallet: charged while the PSP's data lags; the order is closed unpaid locally. */
    LATE_CHARGE,
    /** Wallet: fulfilled, then refunded after sales, the refund executed but reported refused. */
    REFUND_REPORTED_FAILED,
    /** Either: fulfilled, then refunded after sales, normally (a refund with no difference). */
    CLEAN_REFUND,
    /**
     * Card: fulfilled, then refunded after sales in two equal halves, which the balance report
     * lists without our refund numbers (only the payment's metadata names them): matched through
     * the payment, with no difference.
     */
    SPLIT_REFUND,
    /** Either: the PSP takes another fee than agreed. */
    FEE_DIFFERS,
    /** Card: fulfilled, settled, then reversed by the PSP in a later day's report. */
    REVERSED
  }

  private final FaultPlan plan;
  private final double rate;

  /**
   * @param rate the probability of each injected fate (each of the four differences; a clean wallet
   *     refund twice as often; a card refund, whole or in two halves)
   */
  ReconPlan(long seed, double rate) {
    this.plan = new FaultPlan(seed, 1);
    this.rate = rate;
  }

  boolean wallet(int payment) {
    return plan.unit("recon.family", Integer.toString(payment), 0) < WALLET_SHARE;
  }

  Fate fate(int payment) {
    double u = plan.unit("recon.fate", Integer.toString(payment), 0);
    if (wallet(payment)) {
      return u < rate
          ? Fate.LATE_CHARGE
          : u < 2 * rate
              ? Fate.REFUND_REPORTED_FAILED
              : u < 3 * rate ? Fate.FEE_DIFFERS : u < 5 * rate ? Fate.CLEAN_REFUND : Fate.CLEAN;
    }
    return u < rate
        ? Fate.FEE_DIFFERS
        : u < 2 * rate
            ? Fate.REVERSED
            : u < 3 * rate ? Fate.CLEAN_REFUND : u < 4 * rate ? Fate.SPLIT_REFUND : Fate.CLEAN;
  }

  /** The payment's amount in fen / cents: 1.00 to 500.00. */
  long amount(int payment) {
    return 100 + plan.below("recon.amount", Integer.toString(payment), 0, 49_900);
  }

  /** The injected fee difference of a payment, 1 to 50 minor units. */
  long feeDelta(int payment) {
    return 1 + plan.below("recon.fee", Integer.toString(payment), 0, 50);
  }

  /** How many foreign orders (made outside Clearway) the wallet PSP's bill shows. */
  int foreignOrders(int payments) {
    return Math.max(1, (int) Math.round(payments * rate / 2));
  }
}
