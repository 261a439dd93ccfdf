package dev.clearway.sim.psp.wechat;

import dev.clearway.sim.FaultPlan;
import java.util.Objects;

/**
 * Chooses, deterministically per {@code out_trade_no}, what the simulated customer does, so that a
 * run replays from its seed whatever the thread timing.
 */
@FunctionalInterface
public interface PayerChoice {

  Payer payerFor(String outTradeNo);

  /** Every customer does the same. */
  static PayerChoice always(Payer payer) {
    Objects.requireNonNull(payer, "payer");
    return outTradeNo -> payer;
  }

  /**
   * A seeded mix: FAILS with probability {@code failsRate}, NEVER with {@code neverRate}, PAYS
   * otherwise.
   */
  static PayerChoice seeded(long seed, double failsRate, double neverRate) {
    if (failsRate < 0 || neverRate < 0 || failsRate + neverRate > 1) {
      throw new IllegalArgumentException("rates must be within [0, 1] and sum to at most 1");
    }
    FaultPlan plan = new FaultPlan(seed, 1);
    return outTradeNo -> {
      double u = plan.unit("wechat.payer", outTradeNo, 0);
      if (u < failsRate) {
        return Payer.FAILS;
      }
      return u < failsRate + neverRate ? Payer.NEVER : Payer.PAYS;
    };
  }
}
