package dev.clearway.psp.wechat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.spi.AttemptRef;
import dev.clearway.core.channel.spi.CreatePayment;
import dev.clearway.sim.psp.PspCharge;
import dev.clearway.sim.psp.PspFaults;
import dev.clearway.sim.psp.wechat.Payer;
import dev.clearway.sim.psp.wechat.RefundBehaviour;
import dev.clearway.sim.psp.wechat.WechatSimKeys;
import dev.clearway.sim.psp.wechat.WechatSimOptions;
import dev.clearway.sim.psp.wechat.WechatSimServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

/**
 * One simulated WeChat Pay merchant, a notify_url receiver and an adapter wired to both. The
 * customer's behaviour follows the out_trade_no prefix: {@code pay} pays, {@code fail} fails,
 * anything else never pays.
 */
final class WechatHarness implements AutoCloseable {
  static final String MCHID = "1900000109";
  static final String APPID = "wxd678efh567hg6787";
  static final KeyPair MERCHANT = generate();
  static final KeyPair PLATFORM = generate();
  static final KeyPair STRANGER = generate();
  static final String PLATFORM_SERIAL = "PLATFORM-SERIAL-1";
  static final byte[] API_V3_KEY = "0123456789abcdef0123456789ABCDEF".getBytes();
  private static final AtomicInteger NUMBERS = new AtomicInteger();

  final NotificationReceiver receiver;
  final WechatSimServer sim;
  final WechatPayConfig config;
  final WechatPayAdapter adapter;

  private WechatHarness(NotificationReceiver receiver, WechatSimServer sim) {
    this.receiver = receiver;
    this.sim = sim;
    this.config =
        WechatPayConfig.of(sim.baseUrl(), credentials(MERCHANT, PLATFORM), receiver.url(), clock())
            .withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(2));
    this.adapter = new WechatPayAdapter(config);
  }

  static WechatHarness start() {
    return start(o -> o, PspFaults.none());
  }

  static WechatHarness start(UnaryOperator<WechatSimOptions> tune, PspFaults faults) {
    WechatSimKeys keys =
        new WechatSimKeys(
            MCHID, MERCHANT.getPublic(), PLATFORM.getPrivate(), PLATFORM_SERIAL, API_V3_KEY);
    WechatSimOptions options =
        WechatSimOptions.defaults(keys)
            .withPayer(WechatHarness::payerByPrefix)
            .withPayerDelay(Duration.ofMillis(100))
            .withRefunds(RefundBehaviour.immediateSuccess())
            .withNotifyScheduleScale(0.001)
            .withLostResponseHold(Duration.ofMillis(100));
    NotificationReceiver receiver;
    try {
      receiver = new NotificationReceiver();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new WechatHarness(receiver, WechatSimServer.start(tune.apply(options), faults));
  }

  static Clock clock() {
    return Clock.systemUTC();
  }

  static WechatCredentials credentials(KeyPair merchant, KeyPair platform) {
    return new WechatCredentials(
        MCHID,
        APPID,
        merchant.getPrivate(),
        "MERCHANT-SERIAL-1",
        WechatPlatformKeys.of(PLATFORM_SERIAL, platform.getPublic()),
        API_V3_KEY);
  }

  /** Another adapter on the same simulator, with a changed configuration. */
  WechatPayAdapter adapter(UnaryOperator<WechatPayConfig> tune) {
    return new WechatPayAdapter(tune.apply(config));
  }

  /** A fresh out_trade_no with the given prefix (the customer's behaviour). */
  static String number(String prefix) {
    return prefix + "T" + System.nanoTime() % 1_000_000_000L + "N" + NUMBERS.incrementAndGet();
  }

  static CreatePayment payment(String outTradeNo, long amount) {
    return new CreatePayment(outTradeNo, "PO-" + outTradeNo, amount, "CNY", "wallet", "Coffee");
  }

  static AttemptRef ref(String outTradeNo) {
    return new AttemptRef(outTradeNo, "PO-" + outTradeNo, null);
  }

  List<PspCharge> charges(String outTradeNo) {
    return sim.ledger().stream().filter(c -> c.idempotencyKey().equals(outTradeNo)).toList();
  }

  static void await(BooleanSupplier condition, Duration within) {
    long deadline = System.nanoTime() + within.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("condition within %s", within).isLessThan(deadline);
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  private static Payer payerByPrefix(String outTradeNo) {
    if (outTradeNo.startsWith("pay")) {
      return Payer.PAYS;
    }
    return outTradeNo.startsWith("fail") ? Payer.FAILS : Payer.NEVER;
  }

  private static KeyPair generate() {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
      g.initialize(2048);
      return g.generateKeyPair();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    sim.close();
    receiver.close();
  }
}
