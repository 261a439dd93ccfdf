package dev.clearway.sim.psp.wechat;

import dev.clearway.sim.psp.PspCharge;
import dev.clearway.sim.psp.PspFaults;
import dev.clearway.sim.psp.PspInjections;
import dev.clearway.sim.psp.QueryRateMeter;
import dev.clearway.sim.psp.SimPsp;
import dev.clearway.sim.web.SimHttpServer;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * A simulated WeChat Pay API v3 merchant (one mchid) over real HTTP on loopback, following the
 * public behaviour of the real API: signed requests and responses, native orders idempotent by
 * {@code out_trade_no}, query, close (also of a number never created, which then can never be
 * used), refunds once per {@code out_refund_no}, and notifications encrypted with AEAD_AES_256_GCM,
 * signed, and retried on the documented schedule until answered 200 or 204.
 *
 * <pre>
 * try (WechatSimServer psp = WechatSimServer.start(options, PspFaults.none())) {
 *   URI base = psp.baseUrl();
 * }
 * </pre>
 */
public final class WechatSimServer implements SimPsp {
  private static final int HANDLER_THREADS = 256;

  private final SimHttpServer server;
  private final ScheduledExecutorService timer;
  private final WechatNotifier notifier;
  private final WechatOrderBook book;
  private final PspFaults faults;
  private final QueryRateMeter meter;
  private final String mchid;
  private final PspInjections injections;
  private final PlatformSigner signer;

  private WechatSimServer(Parts parts) {
    this.signer = parts.signer;
    this.injections = parts.injections;
    this.server = parts.server;
    this.timer = parts.timer;
    this.notifier = parts.notifier;
    this.book = parts.book;
    this.faults = parts.faults;
    this.meter = parts.meter;
    this.mchid = parts.mchid;
  }

  private static final class Parts {
    SimHttpServer server;
    ScheduledExecutorService timer;
    WechatNotifier notifier;
    WechatOrderBook book;
    PspFaults faults;
    QueryRateMeter meter;
    String mchid;
    PspInjections injections;
    PlatformSigner signer;
  }

  /**
   * Binds an ephemeral loopback port and starts serving.
   *
   * @throws UncheckedIOException if no port can be bound
   */
  public static WechatSimServer start(WechatSimOptions options, PspFaults faults) {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(faults, "faults");
    Parts p = new Parts();
    p.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "wechat-sim-customer");
              t.setDaemon(true);
              return t;
            });
    p.faults = faults;
    p.mchid = options.keys().mchid();
    p.meter = new QueryRateMeter(options.clock());
    p.signer = new PlatformSigner(options.keys());
    p.notifier = new WechatNotifier(options, faults, p.signer);
    p.injections = new PspInjections();
    p.book = new WechatOrderBook(options, faults.seed(), p.timer, p.notifier::emit, p.injections);
    p.server =
        SimHttpServer.start(
            0,
            HANDLER_THREADS,
            "wechat-sim-http",
            new WechatRouter(options, p.book, faults, p.meter, p.injections, p.signer));
    return new WechatSimServer(p);
  }

  /**
   * Rotates the platform key: from now on responses and notifications are signed with {@code key}
   * and name {@code serial} in {@code Wechatpay-Serial}.
   */
  public void rotatePlatformKey(java.security.PrivateKey key, String serial) {
    signer.rotate(Objects.requireNonNull(key, "key"), Objects.requireNonNull(serial, "serial"));
  }

  @Override
  public URI baseUrl() {
    return server.baseUrl();
  }

  @Override
  public String account() {
    return mchid;
  }

  @Override
  public PspFaults faults() {
    return faults;
  }

  @Override
  public QueryRateMeter queries() {
    return meter;
  }

  /**
   * One row per order: CHARGED (SUCCESS or REFUND), PENDING (NOTPAY, USERPAYING), FAILED (PAYERROR)
   * or CLOSED; {@code refunded} counts refunds that reached SUCCESS. The merchant reference is the
   * order's {@code attach}.
   */
  @Override
  public List<PspCharge> ledger() {
    return book.ledger().stream().map(this::charge).toList();
  }

  private PspCharge charge(WechatOrderBook.Ledger row) {
    String status =
        switch (row.state()) {
          case WechatProtocol.SUCCESS, WechatProtocol.REFUND -> "CHARGED";
          case WechatProtocol.PAYERROR -> "FAILED";
          case WechatProtocol.CLOSED -> "CLOSED";
          default -> "PENDING";
        };
    return new PspCharge(
        mchid,
        row.request().outTradeNo(),
        row.request().attach(),
        "PENDING".equals(status) || "CLOSED".equals(status) ? null : row.transactionId(),
        row.request().amount().total(),
        status,
        row.refunded());
  }

  /** The differences this merchant injects into what it answers and what its bill shows. */
  public PspInjections injections() {
    return injections;
  }

  /**
   * A native order paid outside the merchant's system (another environment, an order taken by
   * hand): on the trade bill, announced to nobody. Recorded as an injected {@code
   * UNKNOWN_STATEMENT_LINE} under {@code attach}.
   */
  public void foreignCharge(String outTradeNo, String attach, long amount, String currency) {
    book.foreignCharge(
        new NativeOrder(
            "wx_foreign",
            "foreign order",
            outTradeNo,
            "http://127.0.0.1:9/foreign",
            new NativeOrder.Amount(amount, currency),
            attach));
  }

  /** Every refund by out_refund_no with its status (SUCCESS, PROCESSING, ABNORMAL, CLOSED). */
  public java.util.Map<String, String> refundStatuses() {
    return book.refundStatuses();
  }

  /**
   * Overrides every order's notify_url from now on; null stops sending. Until first called,
   * notifications go to each order's notify_url.
   */
  @Override
  public void webhookTarget(URI target) {
    notifier.target(target);
  }

  /** HTTP attempts at delivering notifications so far, retries and duplicates included. */
  public long notificationAttempts() {
    return notifier.attempts();
  }

  /** Notification attempts answered 200 or 204. */
  public long notificationsDelivered() {
    return notifier.delivered();
  }

  /** Stops at once: open connections, held responses and pending notifications are dropped. */
  @Override
  public void close() {
    server.close();
    timer.shutdownNow();
    notifier.close();
  }
}
