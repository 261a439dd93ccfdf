package dev.clearway.sim.psp.wechat;

import dev.clearway.sim.psp.PspCharge;
import dev.clearway.sim.psp.PspInjections;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The simulated merchant's orders, closed numbers and refunds, with WeChat Pay's rules: one order
 * per {@code out_trade_no} (a create with other parameters is refused, a closed number can never be
 * used again), one refund per {@code out_refund_no}, refunds never exceed what remains. The
 * customer acts on a timer; every final payment and refund state is handed to the notifier once.
 * All methods are atomic (one lock).
 */
final class WechatOrderBook {
  private final String mchid;
  private final WechatSimOptions options;
  private final long seed;
  private final ScheduledExecutorService timer;
  private final Consumer<WechatEvent> events;
  private final Clock clock;
  private final Map<String, SimOrder> orders = new LinkedHashMap<>();
  private final Map<String, SimOrder> byTransactionId = new HashMap<>();
  private final Set<String> closedNumbers = new HashSet<>();
  private final Map<String, SimRefund> refunds = new HashMap<>();
  private final PspInjections injections;
  private long sequence;

  WechatOrderBook(
      WechatSimOptions options,
      long seed,
      ScheduledExecutorService timer,
      Consumer<WechatEvent> events,
      PspInjections injections) {
    this.injections = injections;
    this.mchid = options.keys().mchid();
    this.options = options;
    this.seed = seed;
    this.timer = timer;
    this.events = events;
    this.clock = options.clock();
  }

  synchronized boolean known(String outTradeNo) {
    return orders.containsKey(outTradeNo) || closedNumbers.contains(outTradeNo);
  }

  /**
   * Creates the order, or answers the stored code_url for a replay with equal parameters.
   *
   * @param payer overrides the configured payer choice (null: use it)
   */
  synchronized Map<String, Object> create(NativeOrder request, Payer payer) throws WechatApiError {
    String no = request.outTradeNo();
    SimOrder existing = orders.get(no);
    if (closedNumbers.contains(no)
        || (existing != null && WechatProtocol.CLOSED.equals(existing.state))) {
      throw new WechatApiError(400, WechatProtocol.ORDER_CLOSED, "order closed");
    }
    if (existing != null) {
      if (!existing.request.equals(request)) {
        throw new WechatApiError(
            400, WechatProtocol.INVALID_REQUEST, "out_trade_no used with different parameters");
      }
      return codeUrl(existing);
    }
    long n = ++sequence;
    SimOrder order =
        new SimOrder(
            request,
            String.format("4200%024d", n),
            request.jsapi()
                ? "wx" + WechatCrypto.nonce(24) + n
                : "weixin://wxpay/bizpayurl?pr=" + WechatCrypto.nonce(7) + n);
    orders.put(no, order);
    byTransactionId.put(order.transactionId, order);
    Payer who = payer != null ? payer : options.payer().payerFor(no);
    Duration delay = options.payerDelay();
    switch (who) {
      case PAYS, FAILS -> {
        later(delay.dividedBy(2), () -> startPaying(order));
        later(delay, () -> finishPaying(order, who == Payer.PAYS));
      }
      case NEVER -> {
        // The QR code is never scanned: NOTPAY until closed.
      }
    }
    return codeUrl(order);
  }

  /**
   * The order by out_trade_no; {@code subMchid} is the sub-merchant of a partner-mode query (null
   * for a direct one): an order of another sub-merchant, or of the other mode, does not exist.
   */
  synchronized Map<String, Object> queryByOutTradeNo(String outTradeNo, String subMchid)
      throws WechatApiError {
    SimOrder order = orders.get(outTradeNo);
    if (order == null || !java.util.Objects.equals(order.request.party().subMchid(), subMchid)) {
      throw new WechatApiError(404, WechatProtocol.ORDER_NOT_EXIST, "order does not exist");
    }
    return WechatResources.transaction(mchid, order);
  }

  synchronized Map<String, Object> queryByTransactionId(String transactionId)
      throws WechatApiError {
    SimOrder order = byTransactionId.get(transactionId);
    if (order == null || order.transactionId == null || !(order.paid() || isPayError(order))) {
      throw new WechatApiError(404, WechatProtocol.ORDER_NOT_EXIST, "order does not exist");
    }
    return WechatResources.transaction(mchid, order);
  }

  /** Closes an unpaid order; a number never created is recorded closed for good. */
  synchronized void close(String outTradeNo, String subMchid) throws WechatApiError {
    SimOrder order = orders.get(outTradeNo);
    if (order != null && !java.util.Objects.equals(order.request.party().subMchid(), subMchid)) {
      throw new WechatApiError(404, WechatProtocol.ORDER_NOT_EXIST, "order does not exist");
    }
    if (order == null) {
      closedNumbers.add(outTradeNo);
      return;
    }
    if (order.paid()) {
      throw new WechatApiError(400, WechatProtocol.ORDERPAID, "order paid");
    }
    order.state = WechatProtocol.CLOSED;
  }

  synchronized Map<String, Object> refund(RefundRequest request) throws WechatApiError {
    SimRefund existing = refunds.get(request.outRefundNo());
    if (existing != null) {
      return WechatResources.refund(mchid, existing, false);
    }
    SimOrder order = orders.get(request.outTradeNo());
    if (order == null) {
      throw new WechatApiError(404, WechatProtocol.RESOURCE_NOT_EXISTS, "order does not exist");
    }
    if (!order.paid()) {
      throw new WechatApiError(400, WechatProtocol.INVALID_REQUEST, "order not paid");
    }
    if (request.total() != order.request.amount().total()
        || !order.request.amount().currency().equals(request.currency())) {
      throw new WechatApiError(400, WechatProtocol.INVALID_REQUEST, "amount.total mismatch");
    }
    if (request.refund() > order.request.amount().total() - reserved(order)) {
      throw new WechatApiError(400, WechatProtocol.NOT_ENOUGH, "refund exceeds what remains");
    }
    SimRefund refund =
        new SimRefund(
            String.format("5030%025d", ++sequence),
            request.outRefundNo(),
            order,
            request.refund(),
            clock.instant());
    refund.status = options.refunds().firstStatus(seed, request.outRefundNo());
    refunds.put(refund.outRefundNo, refund);
    switch (refund.status) {
      case WechatProtocol.REFUND_SUCCESS -> succeedRefund(refund);
      case WechatProtocol.REFUND_PROCESSING ->
          later(options.refunds().processingFor(), () -> settleRefund(refund));
      case WechatProtocol.REFUND_ABNORMAL ->
          emitRefund(refund, WechatProtocol.REFUND_ABNORMAL_EVENT, "退款异常");
      default -> emitRefund(refund, WechatProtocol.REFUND_CLOSED_EVENT, "退款关闭");
    }
    if (!WechatProtocol.REFUND_CLOSED.equals(refund.status)) {
      order.state = WechatProtocol.REFUND;
    }
    return WechatResources.refund(mchid, refund, false);
  }

  synchronized Map<String, Object> queryRefund(String outRefundNo) throws WechatApiError {
    SimRefund refund = refunds.get(outRefundNo);
    if (refund == null) {
      throw new WechatApiError(404, WechatProtocol.RESOURCE_NOT_EXISTS, "refund does not exist");
    }
    return WechatResources.refund(mchid, refund, false);
  }

  synchronized List<Ledger> ledger() {
    List<Ledger> out = new ArrayList<>();
    for (SimOrder order : orders.values()) {
      long refunded = 0;
      for (SimRefund r : refunds.values()) {
        if (r.order == order && WechatProtocol.REFUND_SUCCESS.equals(r.status)) {
          refunded += r.amount;
        }
      }
      out.add(new Ledger(order.request, order.transactionId, order.state, refunded));
    }
    return out;
  }

  /** The trades paid and the refunds settled within {@code [from, to)}, in time order. */
  synchronized List<WechatTradeBill.Entry> billEntries(Instant from, Instant to) {
    List<WechatTradeBill.Entry> out = new ArrayList<>();
    for (SimOrder order : orders.values()) {
      if (order.successTime != null && within(order.successTime, from, to)) {
        out.add(
            WechatTradeBill.Entry.trade(order.request, order.transactionId, order.successTime)
                .withFeeDelta(injections.feeDeltaOf(order.request.attach())));
      }
    }
    for (SimRefund r : refunds.values()) {
      if (r.successTime != null && within(r.successTime, from, to)) {
        out.add(
            WechatTradeBill.Entry.refund(
                r.order.request,
                r.order.transactionId,
                r.refundId,
                r.outRefundNo,
                r.amount,
                r.successTime));
      }
    }
    out.sort(java.util.Comparator.comparing(WechatTradeBill.Entry::at));
    return out;
  }

  private static boolean within(Instant at, Instant from, Instant to) {
    return !at.isBefore(from) && at.isBefore(to);
  }

  /** Whether the order numbered {@code outTradeNo} is one whose data lags. */
  synchronized boolean lagged(String outTradeNo) {
    SimOrder order = orders.get(outTradeNo);
    return order != null && injections.lagged(order.request.attach());
  }

  /** Whether the order with this transaction id is one whose data lags. */
  synchronized boolean laggedTransaction(String transactionId) {
    SimOrder order = byTransactionId.get(transactionId);
    return order != null && injections.lagged(order.request.attach());
  }

  /**
   * A charge the merchant's system never made (another environment, an order taken by hand): paid
   * at once, announced to nobody, on the statement only.
   */
  synchronized void foreignCharge(NativeOrder request) {
    long n = ++sequence;
    SimOrder order = new SimOrder(request, String.format("4200%024d", n), "weixin://foreign/" + n);
    order.state = WechatProtocol.SUCCESS;
    order.successTime = clock.instant();
    orders.put(request.outTradeNo(), order);
    byTransactionId.put(order.transactionId, order);
    injections.record("UNKNOWN_STATEMENT_LINE", request.attach());
  }

  /** The settled refunds: out_refund_no to status. */
  synchronized Map<String, String> refundStatuses() {
    Map<String, String> out = new LinkedHashMap<>();
    refunds.values().forEach(r -> out.put(r.outRefundNo, r.status));
    return out;
  }

  /** A ledger row before it is rendered as a {@link PspCharge}. */
  record Ledger(NativeOrder request, String transactionId, String state, long refunded) {}

  // ---- the customer and the refund back office, on the timer ----------------------------------

  private synchronized void startPaying(SimOrder order) {
    if (WechatProtocol.NOTPAY.equals(order.state)) {
      order.state = WechatProtocol.USERPAYING;
    }
  }

  private synchronized void finishPaying(SimOrder order, boolean pays) {
    if (!WechatProtocol.USERPAYING.equals(order.state)
        && !WechatProtocol.NOTPAY.equals(order.state)) {
      return; // closed meanwhile
    }
    if (!pays) {
      order.state = WechatProtocol.PAYERROR;
      return;
    }
    order.state = WechatProtocol.SUCCESS;
    order.successTime = clock.instant();
    String reference = order.request.attach();
    if (injections.feeDeltaOf(reference) != 0) {
      injections.record("FEE_MISMATCH", reference);
    }
    if (injections.lagged(reference)) {
      injections.record("LATE_CHARGE", reference);
      return; // its data lags: no notification
    }
    events.accept(
        new WechatEvent(
            WechatProtocol.TRANSACTION_SUCCESS,
            "支付成功",
            "transaction",
            WechatResources.transaction(mchid, order),
            order.request.notifyUrl(),
            "tx:" + order.request.outTradeNo()));
  }

  private synchronized void settleRefund(SimRefund refund) {
    if (WechatProtocol.REFUND_PROCESSING.equals(refund.status)) {
      succeedRefund(refund);
    }
  }

  private void succeedRefund(SimRefund refund) {
    refund.status = WechatProtocol.REFUND_SUCCESS;
    refund.successTime = clock.instant();
    if (injections.liedAbout(refund.outRefundNo)) {
      injections.record("REFUND_SETTLED_LOCAL_PENDING", refund.outRefundNo);
      return; // reported refused: no notification
    }
    emitRefund(refund, WechatProtocol.REFUND_SUCCESS_EVENT, "退款成功");
  }

  private void emitRefund(SimRefund refund, String eventType, String summary) {
    events.accept(
        new WechatEvent(
            eventType,
            summary,
            "refund",
            WechatResources.refund(mchid, refund, true),
            refund.order.request.notifyUrl(),
            "refund:" + refund.outRefundNo));
  }

  private long reserved(SimOrder order) {
    long sum = 0;
    for (SimRefund r : refunds.values()) {
      if (r.order == order && !WechatProtocol.REFUND_CLOSED.equals(r.status)) {
        sum += r.amount;
      }
    }
    return sum;
  }

  private static boolean isPayError(SimOrder order) {
    return WechatProtocol.PAYERROR.equals(order.state);
  }

  /** A native order's {@code code_url}, or a JSAPI order's {@code prepay_id}. */
  private static Map<String, Object> codeUrl(SimOrder order) {
    return Map.of(order.request.jsapi() ? "prepay_id" : "code_url", order.codeUrl);
  }

  private void later(Duration delay, Runnable task) {
    try {
      timer.schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException closing) {
      // The server is closing.
    }
  }
}
