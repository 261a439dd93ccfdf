package dev.clearway.service.testkit;

import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.flow.port.WalletGateway;
import dev.clearway.sim.LedgerEntry;
import dev.clearway.sim.SimulatedCrash;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A wallet whose every call the test decides, idempotent by trade order number and by refund order
 * number like a real one: a charged order is never charged again, a closed order can never be
 * charged, a query of an order that never executed answers NO_RECORD. Keeps a ledger of executed
 * charges and refunds (the {@link LedgerEntry} of clearway-sim, so the chaos checker can read it).
 *
 * <p>Scripts are queued per order number and consumed one per call; an empty queue means {@link
 * Pay#SUCCESS} / {@link Refund#SUCCESS}. The script decides what the transport does around the
 * wallet's idempotent execution; it never makes the wallet execute twice. ({@link
 * dev.clearway.sim.SimWallet} picks its faults from a hashed FaultPlan and cannot be scripted per
 * call, hence this double.)
 */
public final class ScriptedWallet implements WalletGateway {

  /** What one pay call does. */
  public enum Pay {
    /** Execute (idempotently) and answer the truth. */
    SUCCESS,
    /** Execute, then lose the response: the caller sees UNKNOWN "TIMEOUT". */
    RESPONSE_LOST,
    /** Time out before the wallet received anything: UNKNOWN "TIMEOUT", nothing executed. */
    TIMEOUT_BEFORE,
    /** A new order is PROCESSING and charges {@link #processingFor} later. */
    PROCESSING,
    /** A new order is definitely rejected (insufficient balance). */
    REJECT,
    /** Execute, then a proxy answers HTTP 502: UNKNOWN. */
    ERROR_5XX_AFTER,
    /** Execute, then the calling worker dies ({@link SimulatedCrash}). */
    CRASH_AFTER
  }

  /** What one refund call does. */
  public enum Refund {
    SUCCESS,
    RESPONSE_LOST,
    TIMEOUT_BEFORE,
    /** A new refund is PROCESSING and executes {@link #processingFor} later. */
    PROCESSING,
    /** A definite, retryable failure; nothing executed; the same number may be sent again. */
    FAILED_ONCE,
    CRASH_AFTER
  }

  private enum State {
    PROCESSING,
    SUCCESS,
    FAILED,
    CLOSED
  }

  private static final class Order {
    final String orderNo;
    final String tradeOrderNo;
    final long amount;
    final boolean refund;
    State state;
    Instant completeAt;
    String failure;

    Order(String orderNo, String tradeOrderNo, long amount, boolean refund) {
      this.orderNo = orderNo;
      this.tradeOrderNo = tradeOrderNo;
      this.amount = amount;
      this.refund = refund;
    }
  }

  /**
   * One call as the wallet received it. kind: PAY, LATE_PAY, QUERY, CLOSE, REFUND, REFUND_QUERY.
   */
  public record Call(String kind, String orderNo, Instant at) {}

  private final Clock clock;
  private final Map<String, Order> payments = new HashMap<>();
  private final Map<String, Order> refunds = new HashMap<>();
  private final Map<String, Deque<Pay>> payScripts = new HashMap<>();
  private final Map<String, Deque<Refund>> refundScripts = new HashMap<>();
  private final List<LedgerEntry> ledger = new ArrayList<>();
  private final List<Call> calls = new ArrayList<>();
  private final Map<String, ChargeRequest> lostInTransit = new HashMap<>();
  private Consumer<String> duringNextCall;
  private Duration processingFor = Duration.ofMillis(500);
  private boolean down;
  private long requestIds;

  public ScriptedWallet(Clock clock) {
    this.clock = clock;
  }

  // ---- scripting ------------------------------------------------------------------------------

  public synchronized ScriptedWallet scriptPay(String tradeOrderNo, Pay... perCall) {
    payScripts
        .computeIfAbsent(tradeOrderNo, k -> new ArrayDeque<>())
        .addAll(Arrays.asList(perCall));
    return this;
  }

  public synchronized ScriptedWallet scriptRefund(String refundOrderNo, Refund... perCall) {
    refundScripts
        .computeIfAbsent(refundOrderNo, k -> new ArrayDeque<>())
        .addAll(Arrays.asList(perCall));
    return this;
  }

  public synchronized ScriptedWallet processingFor(Duration duration) {
    this.processingFor = duration;
    return this;
  }

  /**
   * Runs {@code hook} (with the call's order number) inside the next call, after the wallet acted
   * and before the caller sees the answer: e.g. another worker takes the same flow over while this
   * one waits for the response. Once.
   */
  public synchronized void duringNextCall(Consumer<String> hook) {
    this.duringNextCall = hook;
  }

  /** While down, every call answers UNKNOWN and executes nothing (a wallet outage). */
  public synchronized void setDown(boolean down) {
    this.down = down;
  }

  // ---- the wallet -----------------------------------------------------------------------------

  @Override
  public synchronized WalletResult pay(ChargeRequest request) {
    return during(request.tradeOrderNo(), () -> doPay(request));
  }

  private WalletResult doPay(ChargeRequest request) {
    String no = request.tradeOrderNo();
    log("PAY", no);
    if (down) {
      lostInTransit.put(no, request);
      return WalletResult.unknown("WALLET_DOWN");
    }
    Deque<Pay> script = payScripts.get(no);
    Pay step = script == null || script.isEmpty() ? Pay.SUCCESS : script.poll();
    if (step == Pay.TIMEOUT_BEFORE) {
      lostInTransit.put(no, request);
      return WalletResult.unknown("TIMEOUT");
    }
    WalletResult truth = execute(request, step);
    return switch (step) {
      case RESPONSE_LOST -> WalletResult.unknown("TIMEOUT");
      case ERROR_5XX_AFTER -> WalletResult.unknown("HTTP_502");
      case CRASH_AFTER -> throw new SimulatedCrash("pay " + no);
      default -> truth;
    };
  }

  /**
   * The network finally delivers a pay request of this order that timed out before reaching the
   * wallet: executed like any pay (a closed or already decided order is not charged), consuming no
   * script. Returns null when no such request is in transit (a request never sent cannot arrive).
   */
  public synchronized WalletResult deliverLatePay(String tradeOrderNo) {
    ChargeRequest request = lostInTransit.remove(tradeOrderNo);
    if (request == null) {
      return null;
    }
    log("LATE_PAY", tradeOrderNo);
    return execute(request, Pay.SUCCESS);
  }

  private WalletResult execute(ChargeRequest request, Pay step) {
    Order order = payments.get(request.tradeOrderNo());
    if (order == null) {
      order = new Order(request.tradeOrderNo(), request.tradeOrderNo(), request.amount(), false);
      payments.put(order.orderNo, order);
      switch (step) {
        case REJECT -> {
          order.state = State.FAILED;
          order.failure = "INSUFFICIENT_BALANCE";
        }
        case PROCESSING -> {
          order.state = State.PROCESSING;
          order.completeAt = clock.instant().plus(processingFor);
        }
        default -> charge(order);
      }
    } else if (order.state != State.CLOSED && order.amount != request.amount()) {
      return WalletResult.failed("PARAMETER_MISMATCH", rid(), false);
    }
    return answer(order);
  }

  @Override
  public synchronized WalletResult queryPayment(String tradeOrderNo) {
    return during(tradeOrderNo, () -> doQueryPayment(tradeOrderNo));
  }

  private WalletResult doQueryPayment(String tradeOrderNo) {
    log("QUERY", tradeOrderNo);
    if (down) {
      return WalletResult.unknown("WALLET_DOWN");
    }
    Order order = payments.get(tradeOrderNo);
    return order == null ? WalletResult.noRecord(rid()) : answer(order);
  }

  @Override
  public synchronized WalletResult closePayment(String tradeOrderNo) {
    return during(tradeOrderNo, () -> doClosePayment(tradeOrderNo));
  }

  private WalletResult doClosePayment(String tradeOrderNo) {
    log("CLOSE", tradeOrderNo);
    if (down) {
      return WalletResult.unknown("WALLET_DOWN");
    }
    Order order = payments.computeIfAbsent(tradeOrderNo, k -> new Order(k, k, 0, false));
    settle(order);
    if (order.state == State.SUCCESS) {
      return WalletResult.failed("ALREADY_PAID", rid(), false);
    }
    if (order.state == null || order.state == State.PROCESSING) {
      order.state = State.CLOSED;
    }
    return WalletResult.success(rid());
  }

  @Override
  public synchronized WalletResult refund(RefundRequest request) {
    return during(request.refundOrderNo(), () -> doRefund(request));
  }

  private WalletResult doRefund(RefundRequest request) {
    String no = request.refundOrderNo();
    log("REFUND", no);
    if (down) {
      return WalletResult.unknown("WALLET_DOWN");
    }
    Deque<Refund> script = refundScripts.get(no);
    Refund step = script == null || script.isEmpty() ? Refund.SUCCESS : script.poll();
    if (step == Refund.TIMEOUT_BEFORE) {
      return WalletResult.unknown("TIMEOUT");
    }
    Order refund = refunds.get(no);
    if (refund != null && !refund.tradeOrderNo.equals(request.tradeOrderNo())) {
      return WalletResult.failed("PARAMETER_MISMATCH", rid(), false);
    }
    if (refund == null || refund.state == State.FAILED) {
      Order paid = payments.get(request.tradeOrderNo());
      if (paid != null) {
        settle(paid);
      }
      if (paid == null || paid.state != State.SUCCESS) {
        return WalletResult.failed("TRADE_NOT_PAID", rid(), false);
      }
      if (request.amount() > paid.amount - refundedAmount(paid.orderNo)) {
        return WalletResult.failed("REFUND_EXCEEDS_PAYMENT", rid(), false);
      }
      if (refund == null) {
        refund = new Order(no, request.tradeOrderNo(), request.amount(), true);
        refunds.put(no, refund);
      }
      switch (step) {
        case FAILED_ONCE -> {
          refund.state = State.FAILED;
          return WalletResult.failed("MERCHANT_BALANCE_LOW", rid(), true);
        }
        case PROCESSING -> {
          refund.state = State.PROCESSING;
          refund.completeAt = clock.instant().plus(processingFor);
        }
        default -> refundNow(refund);
      }
    }
    WalletResult truth = answerRefund(refund);
    return switch (step) {
      case RESPONSE_LOST -> WalletResult.unknown("TIMEOUT");
      case CRASH_AFTER -> throw new SimulatedCrash("refund " + no);
      default -> truth;
    };
  }

  @Override
  public synchronized WalletResult queryRefund(String refundOrderNo) {
    return during(refundOrderNo, () -> doQueryRefund(refundOrderNo));
  }

  private WalletResult doQueryRefund(String refundOrderNo) {
    log("REFUND_QUERY", refundOrderNo);
    if (down) {
      return WalletResult.unknown("WALLET_DOWN");
    }
    Order refund = refunds.get(refundOrderNo);
    return refund == null ? WalletResult.noRecord(rid()) : answerRefund(refund);
  }

  // ---- what the test reads --------------------------------------------------------------------

  /** Completes PROCESSING charges and refunds whose time has come (the wallet's own background). */
  public synchronized void settleAll() {
    payments.values().forEach(this::settle);
    refunds.values().forEach(this::settle);
  }

  public synchronized List<LedgerEntry> ledger() {
    return List.copyOf(ledger);
  }

  public synchronized long charges(String tradeOrderNo) {
    return count(LedgerEntry.Kind.CHARGE, tradeOrderNo);
  }

  public synchronized long refunds(String refundOrderNo) {
    return count(LedgerEntry.Kind.REFUND, refundOrderNo);
  }

  public synchronized List<Call> calls() {
    return List.copyOf(calls);
  }

  public synchronized List<Call> calls(String kind) {
    return calls.stream().filter(c -> c.kind().equals(kind)).toList();
  }

  // ---- internals ------------------------------------------------------------------------------

  private WalletResult during(String orderNo, Supplier<WalletResult> call) {
    WalletResult result;
    try {
      result = call.get();
    } finally {
      Consumer<String> hook = duringNextCall;
      duringNextCall = null;
      if (hook != null) {
        hook.accept(orderNo);
      }
    }
    return result;
  }

  private long count(LedgerEntry.Kind kind, String orderNo) {
    return ledger.stream().filter(e -> e.kind() == kind && e.orderNo().equals(orderNo)).count();
  }

  private long refundedAmount(String tradeOrderNo) {
    return ledger.stream()
        .filter(e -> e.kind() == LedgerEntry.Kind.REFUND && e.tradeOrderNo().equals(tradeOrderNo))
        .mapToLong(LedgerEntry::amount)
        .sum();
  }

  private WalletResult answer(Order order) {
    settle(order);
    return switch (order.state) {
      case SUCCESS -> WalletResult.success(rid());
      case PROCESSING -> WalletResult.processing(rid());
      case FAILED -> WalletResult.failed(order.failure, rid(), false);
      case CLOSED -> WalletResult.failed("ORDER_CLOSED", rid(), false);
    };
  }

  private WalletResult answerRefund(Order refund) {
    settle(refund);
    return switch (refund.state) {
      case SUCCESS -> WalletResult.success(rid());
      case PROCESSING -> WalletResult.processing(rid());
      case FAILED -> WalletResult.failed("MERCHANT_BALANCE_LOW", rid(), true);
      case CLOSED -> WalletResult.failed("REFUND_CLOSED", rid(), false);
    };
  }

  private void settle(Order order) {
    if (order.state == State.PROCESSING && !clock.instant().isBefore(order.completeAt)) {
      if (order.refund) {
        refundNow(order);
      } else {
        charge(order);
      }
    }
  }

  private void charge(Order order) {
    order.state = State.SUCCESS;
    ledger.add(
        new LedgerEntry(
            LedgerEntry.Kind.CHARGE, order.orderNo, order.tradeOrderNo, order.amount, now()));
  }

  private void refundNow(Order refund) {
    refund.state = State.SUCCESS;
    ledger.add(
        new LedgerEntry(
            LedgerEntry.Kind.REFUND, refund.orderNo, refund.tradeOrderNo, refund.amount, now()));
  }

  private void log(String kind, String orderNo) {
    calls.add(new Call(kind, orderNo, now()));
  }

  private Instant now() {
    return clock.instant();
  }

  private String rid() {
    return "wreq-" + ++requestIds;
  }
}
