package dev.clearway.lab.channel;

import dev.clearway.sim.psp.PspFaults;
import dev.clearway.sim.psp.wechat.PayerChoice;
import java.time.Duration;
import java.util.List;

/**
 * The channel accounts of the chaos run and their seeded faults: three Stripe-style accounts
 * (psp:a, psp:b, psp:c) and two WeChat Pay v3-style accounts (psp:wx-a, psp:wx-b), each in its own
 * failure domain.
 *
 * <p>A loses responses and has the outage phases ({@link ChaosPhases}); B loses responses and
 * sometimes lies (answers a definite failure, charges anyway); C answers stored 500s. wx-a loses
 * responses and has an outage phase; wx-b sometimes lies. Webhooks of all are duplicated and
 * delayed. The simulated WeChat customer pays shortly after an order is created and, for a seeded
 * small share, never pays or fails to pay.
 */
final class ChaosAccounts {

  private final PspFaults a;
  private final PspFaults b;
  private final PspFaults c;
  private final PspFaults wxA;
  private final PspFaults wxB;
  private final SimChannels.WechatCustomer customer;

  ChaosAccounts(long seed) {
    a = new PspFaults(seed).lostResponseRate(0.05).webhookDuplicateRate(0.3);
    b = new PspFaults(seed + 1).lostResponseRate(0.1).lieRate(0.05);
    c = new PspFaults(seed + 2).error500Rate(0.05).lostResponseRate(0.05);
    // WeChat's lost responses are rolled per (operation, out_trade_no / out_refund_no): every call
    // of that operation on that number loses its answer. The liar (whose charges are refunded)
    // therefore loses none, so that each refund is answered.
    wxA = new PspFaults(seed + 3).lostResponseRate(0.05);
    wxB = new PspFaults(seed + 4).lieRate(0.1);
    for (PspFaults f : List.of(a, b, c, wxA, wxB)) {
      f.webhookDuplicateRate(0.3).webhookDelayMaxMillis(300);
    }
    customer =
        new SimChannels.WechatCustomer(
            PayerChoice.seeded(seed, 0.03, 0.05), Duration.ofMillis(300));
  }

  /** The accounts to simulate, with their ids, channel names, priorities and faults. */
  List<SimChannels.AccountSpec> specs() {
    return List.of(
        new SimChannels.AccountSpec(11, "psp:a", 1, a),
        new SimChannels.AccountSpec(12, "psp:b", 2, b),
        new SimChannels.AccountSpec(13, "psp:c", 3, c),
        SimChannels.AccountSpec.wechat(31, "psp:wx-a", 1, wxA, customer),
        SimChannels.AccountSpec.wechat(32, "psp:wx-b", 2, wxB, customer));
  }

  /** Stripe account A, the one with the outage phases. */
  PspFaults stripeA() {
    return a;
  }

  /** WeChat account wx-a, the one with the outage phase. */
  PspFaults wechatA() {
    return wxA;
  }
}
