package dev.clearway.sim.psp.wechat;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * How one simulated WeChat Pay merchant behaves.
 *
 * @param payer what the customer does with each order
 * @param payerDelay when the customer's final act happens after the create (USERPAYING from half of
 *     it)
 * @param notifyScheduleScale multiplies the documented notification retry schedule (15 s ... 6 h);
 *     0.001 turns it into milliseconds for tests
 * @param lostResponseHold how long a lost response holds the client before the connection drops
 * @param clock timestamps of signatures, notifications and the query meter
 */
public record WechatSimOptions(
    WechatSimKeys keys,
    PayerChoice payer,
    Duration payerDelay,
    RefundBehaviour refunds,
    double notifyScheduleScale,
    Duration lostResponseHold,
    Clock clock) {

  public WechatSimOptions {
    Objects.requireNonNull(keys, "keys");
    Objects.requireNonNull(payer, "payer");
    Objects.requireNonNull(payerDelay, "payerDelay");
    Objects.requireNonNull(refunds, "refunds");
    Objects.requireNonNull(lostResponseHold, "lostResponseHold");
    Objects.requireNonNull(clock, "clock");
    if (payerDelay.isNegative() || lostResponseHold.isNegative()) {
      throw new IllegalArgumentException("durations must not be negative");
    }
    if (!(notifyScheduleScale > 0)) {
      throw new IllegalArgumentException("notifyScheduleScale must be positive");
    }
  }

  /**
   * Customers pay after 200 ms, refunds succeed at once, the real notification schedule, lost
   * responses held 500 ms, the system clock.
   */
  public static WechatSimOptions defaults(WechatSimKeys keys) {
    return new WechatSimOptions(
        keys,
        PayerChoice.always(Payer.PAYS),
        Duration.ofMillis(200),
        RefundBehaviour.immediateSuccess(),
        1.0,
        Duration.ofMillis(500),
        Clock.systemUTC());
  }

  public WechatSimOptions withPayer(PayerChoice choice) {
    return new WechatSimOptions(
        keys, choice, payerDelay, refunds, notifyScheduleScale, lostResponseHold, clock);
  }

  public WechatSimOptions withPayerDelay(Duration delay) {
    return new WechatSimOptions(
        keys, payer, delay, refunds, notifyScheduleScale, lostResponseHold, clock);
  }

  public WechatSimOptions withRefunds(RefundBehaviour behaviour) {
    return new WechatSimOptions(
        keys, payer, payerDelay, behaviour, notifyScheduleScale, lostResponseHold, clock);
  }

  public WechatSimOptions withNotifyScheduleScale(double scale) {
    return new WechatSimOptions(keys, payer, payerDelay, refunds, scale, lostResponseHold, clock);
  }

  public WechatSimOptions withLostResponseHold(Duration hold) {
    return new WechatSimOptions(keys, payer, payerDelay, refunds, notifyScheduleScale, hold, clock);
  }

  public WechatSimOptions withClock(Clock c) {
    return new WechatSimOptions(
        keys, payer, payerDelay, refunds, notifyScheduleScale, lostResponseHold, c);
  }
}
