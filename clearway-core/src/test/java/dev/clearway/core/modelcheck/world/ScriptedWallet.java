package dev.clearway.core.modelcheck.world;

import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.flow.port.WalletGateway;
import dev.clearway.core.modelcheck.Pending;
import dev.clearway.core.modelcheck.Scripted;
import dev.clearway.core.modelcheck.world.WalletLedger.Charge;
import dev.clearway.core.modelcheck.world.WalletLedger.OrderState;
import dev.clearway.core.modelcheck.world.WalletLedger.Refund;
import dev.clearway.core.modelcheck.world.WalletLedger.RefundState;
import java.util.List;
import java.util.Map;

/**
 * A wallet that is idempotent by order and refund number and tells the truth when it answers, but
 * whose every answer is chosen by the explorer among what its ledger allows: success, a definite
 * failure, PROCESSING, a timeout before anything happened, or a response lost after the money
 * moved. It refuses a new refund number whose amount would exceed what is left of the charge.
 */
public final class ScriptedWallet implements WalletGateway, Scripted {
  static final String CHARGED = "charged";
  static final String CHARGED_LOST = "charged, response lost";
  static final String DECLINED = "declined";
  static final String PROCESSING = "processing";
  static final String LOST_BEFORE = "lost before the wallet";
  static final String TRUTH = "answers";
  static final String LOST = "response lost";
  static final String CLOSED = "closed";
  static final String CLOSED_LOST = "closed, response lost";
  static final String REFUNDED = "refunded";
  static final String REFUNDED_LOST = "refunded, response lost";
  static final String BALANCE_LOW = "balance low (retryable)";
  static final String REFUSED = "refused (final)";

  private WalletLedger ledger;
  private String outcome;

  public ScriptedWallet(WalletLedger ledger) {
    this.ledger = ledger;
  }

  public WalletLedger ledger() {
    return ledger;
  }

  @Override
  public void choose(String chosen) {
    this.outcome = chosen;
  }

  @Override
  public List<String> outcomes(Pending call) {
    return switch (call.method()) {
      case "pay" -> {
        String trade = ((ChargeRequest) call.arg(0)).tradeOrderNo();
        yield ledger.orders().containsKey(trade)
            ? List.of(TRUTH, LOST)
            : List.of(CHARGED, CHARGED_LOST, DECLINED, PROCESSING, LOST_BEFORE);
      }
      case "closePayment" ->
          ledger.isCharged((String) call.arg(0))
              ? List.of(TRUTH, LOST)
              : List.of(CLOSED, CLOSED_LOST, LOST_BEFORE);
      case "refund" -> refundOutcomes((RefundRequest) call.arg(0));
      case "queryPayment", "queryRefund" -> List.of(TRUTH, LOST);
      default -> throw new IllegalArgumentException("no such wallet call " + call.method());
    };
  }

  private List<String> refundOutcomes(RefundRequest request) {
    Refund known = ledger.refunds().get(request.refundOrderNo());
    boolean fresh = known == null || known.state() == RefundState.FAILED_RETRYABLE;
    if (!ledger.isCharged(request.tradeOrderNo()) || !fresh || exceeds(request)) {
      return List.of(TRUTH, LOST);
    }
    return List.of(REFUNDED, REFUNDED_LOST, PROCESSING, BALANCE_LOW, REFUSED, LOST_BEFORE);
  }

  @Override
  public WalletResult pay(ChargeRequest request) {
    String trade = request.tradeOrderNo();
    return switch (outcome) {
      case CHARGED -> charge(trade, request.amount(), WalletResult.success("pay"));
      case CHARGED_LOST -> charge(trade, request.amount(), WalletResult.unknown("TIMEOUT"));
      case DECLINED -> {
        ledger = ledger.withOrder(trade, new Charge(OrderState.DECLINED, request.amount(), 0));
        yield WalletResult.failed("DECLINED", "pay", false);
      }
      case PROCESSING -> {
        ledger = ledger.withOrder(trade, new Charge(OrderState.PROCESSING, request.amount(), 0));
        yield WalletResult.processing("pay");
      }
      case TRUTH -> orderAnswer(trade);
      default -> WalletResult.unknown("TIMEOUT");
    };
  }

  private WalletResult charge(String trade, long amount, WalletResult answer) {
    ledger = ledger.withOrder(trade, new Charge(OrderState.CHARGED, amount, 1));
    return answer;
  }

  @Override
  public WalletResult queryPayment(String tradeOrderNo) {
    return TRUTH.equals(outcome) ? orderAnswer(tradeOrderNo) : WalletResult.unknown("TIMEOUT");
  }

  private WalletResult orderAnswer(String trade) {
    Charge c = ledger.orders().get(trade);
    if (c == null) {
      return WalletResult.noRecord("query");
    }
    return switch (c.state()) {
      case PROCESSING -> WalletResult.processing("query");
      case CHARGED -> WalletResult.success("query");
      case DECLINED -> WalletResult.failed("DECLINED", "query", false);
      case CLOSED -> WalletResult.failed("ORDER_CLOSED", "query", false);
    };
  }

  @Override
  public WalletResult closePayment(String tradeOrderNo) {
    if (ledger.isCharged(tradeOrderNo)) {
      return TRUTH.equals(outcome)
          ? WalletResult.failed("ALREADY_PAID", "close", false)
          : WalletResult.unknown("TIMEOUT");
    }
    if (CLOSED.equals(outcome) || CLOSED_LOST.equals(outcome)) {
      Charge c = ledger.orders().get(tradeOrderNo);
      long amount = c == null ? 0 : c.amount();
      ledger = ledger.withOrder(tradeOrderNo, new Charge(OrderState.CLOSED, amount, 0));
      return CLOSED.equals(outcome) ? WalletResult.success("close") : WalletResult.unknown("LOST");
    }
    return WalletResult.unknown("TIMEOUT");
  }

  @Override
  public WalletResult refund(RefundRequest request) {
    return switch (outcome) {
      case REFUNDED -> moveRefund(request, RefundState.REFUNDED, WalletResult.success("refund"));
      case REFUNDED_LOST ->
          moveRefund(request, RefundState.REFUNDED, WalletResult.unknown("TIMEOUT"));
      case PROCESSING ->
          moveRefund(request, RefundState.PROCESSING, WalletResult.processing("refund"));
      case BALANCE_LOW ->
          moveRefund(
              request,
              RefundState.FAILED_RETRYABLE,
              WalletResult.failed("MERCHANT_BALANCE_LOW", "refund", true));
      case REFUSED ->
          moveRefund(
              request,
              RefundState.FAILED_FINAL,
              WalletResult.failed("REFUND_REFUSED", "refund", false));
      case TRUTH -> refundTruth(request);
      default -> WalletResult.unknown("TIMEOUT");
    };
  }

  private WalletResult refundTruth(RefundRequest request) {
    if (!ledger.isCharged(request.tradeOrderNo())) {
      return WalletResult.failed("TRADE_NOT_PAID", "refund", false);
    }
    Refund known = ledger.refunds().get(request.refundOrderNo());
    if (known == null && exceeds(request)) {
      return WalletResult.failed("REFUND_EXCEEDS_PAYMENT", "refund", false);
    }
    return refundAnswer(request.refundOrderNo());
  }

  private boolean exceeds(RefundRequest request) {
    long held =
        ledger.refunds().entrySet().stream()
            .filter(e -> !e.getKey().equals(request.refundOrderNo()))
            .map(Map.Entry::getValue)
            .filter(r -> r.tradeOrderNo().equals(request.tradeOrderNo()))
            .filter(r -> r.state() == RefundState.PROCESSING || r.state() == RefundState.REFUNDED)
            .mapToLong(Refund::amount)
            .sum();
    return held + request.amount() > ledger.orders().get(request.tradeOrderNo()).amount();
  }

  private WalletResult moveRefund(RefundRequest r, RefundState state, WalletResult answer) {
    int executed = ledger.refundsOf(r.refundOrderNo()) + (state == RefundState.REFUNDED ? 1 : 0);
    ledger =
        ledger.withRefund(
            r.refundOrderNo(), new Refund(state, r.tradeOrderNo(), r.amount(), executed));
    return answer;
  }

  @Override
  public WalletResult queryRefund(String refundOrderNo) {
    return TRUTH.equals(outcome) ? refundAnswer(refundOrderNo) : WalletResult.unknown("TIMEOUT");
  }

  private WalletResult refundAnswer(String refundNo) {
    Refund r = ledger.refunds().get(refundNo);
    if (r == null) {
      return WalletResult.noRecord("query");
    }
    return switch (r.state()) {
      case PROCESSING -> WalletResult.processing("query");
      case REFUNDED -> WalletResult.success("query");
      case FAILED_RETRYABLE -> WalletResult.failed("MERCHANT_BALANCE_LOW", "query", true);
      case FAILED_FINAL -> WalletResult.failed("REFUND_REFUSED", "query", false);
    };
  }

  // ---- the wallet settling on its own (then it calls back: a wake-up) --------------------------

  /** A PROCESSING charge settles: charged or declined. */
  public void settleCharge(String tradeOrderNo, boolean charged) {
    Charge c = ledger.orders().get(tradeOrderNo);
    ledger =
        ledger.withOrder(
            tradeOrderNo,
            new Charge(
                charged ? OrderState.CHARGED : OrderState.DECLINED, c.amount(), charged ? 1 : 0));
  }

  /** A PROCESSING refund settles: refunded or refused for good. */
  public void settleRefund(String refundNo, boolean refunded) {
    Refund r = ledger.refunds().get(refundNo);
    ledger =
        ledger.withRefund(
            refundNo,
            new Refund(
                refunded ? RefundState.REFUNDED : RefundState.FAILED_FINAL,
                r.tradeOrderNo(),
                r.amount(),
                r.refunds() + (refunded ? 1 : 0)));
  }
}
