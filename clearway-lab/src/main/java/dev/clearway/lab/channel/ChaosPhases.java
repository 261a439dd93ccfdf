package dev.clearway.lab.channel;

import dev.clearway.sim.psp.PspFaults;
import dev.clearway.sim.psp.PspFaults.Outage;
import java.io.PrintStream;

/**
 * The outage phases of the chaos run, switched by payment number: Stripe account A has a definite
 * outage ("channel_unavailable") for the 2nd fifth of the payments and a black hole (results
 * UNKNOWN, which must not fail over) for the 3rd; WeChat account wx-a has a definite outage for the
 * 4th fifth.
 */
final class ChaosPhases {

  private final PspFaults stripeA;
  private final PspFaults wechatA;
  private final int payments;
  private final PrintStream err;

  ChaosPhases(ChaosAccounts accounts, int payments, PrintStream err) {
    this.stripeA = accounts.stripeA();
    this.wechatA = accounts.wechatA();
    this.payments = payments;
    this.err = err;
  }

  /** Sets the outages wanted from payment {@code i} on, telling of each change. */
  void before(int i) {
    stripePhase(i);
    wechatPhase(i);
  }

  /** Ends every outage: the payments are made. */
  void end() {
    stripeA.outage(Outage.NONE);
    wechatA.outage(Outage.NONE);
  }

  /** Account A: definite outage for the 2nd fifth of payments, black hole for the 3rd. */
  private void stripePhase(int i) {
    int fifth = Math.max(1, payments / 5);
    Outage wanted =
        i < fifth
            ? Outage.NONE
            : i < 2 * fifth ? Outage.UNAVAILABLE : i < 3 * fifth ? Outage.BLACKHOLE : Outage.NONE;
    if (stripeA.outage() != wanted) {
      err.println("channels chaos: account A outage " + wanted + " from payment " + i);
      stripeA.outage(wanted);
    }
  }

  /** WeChat account wx-a: definite outage (CHANNEL_UNAVAILABLE) for the 4th fifth of payments. */
  private void wechatPhase(int i) {
    int fifth = Math.max(1, payments / 5);
    Outage wanted = i >= 3 * fifth && i < 4 * fifth ? Outage.UNAVAILABLE : Outage.NONE;
    if (wechatA.outage() != wanted) {
      err.println("channels chaos: account wx-a outage " + wanted + " from payment " + i);
      wechatA.outage(wanted);
    }
  }
}
