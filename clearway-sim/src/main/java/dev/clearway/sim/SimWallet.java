package dev.clearway.sim;

import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.flow.port.WalletGateway;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A wallet that is idempotent by trade order number and by refund order number, answers queries,
 * can close an unpaid order, and keeps a ledger of every charge and refund it actually executed.
 * Faults come from a {@link FaultPlan} and hit the first call of an order only.
 */
public final class SimWallet implements WalletGateway {
  private static final WalletFault[] PAY_FAULTS = {
    WalletFault.PAY_RESPONSE_LOST,
    WalletFault.PAY_TIMEOUT_BEFORE,
    WalletFault.PAY_PROCESSING,
    WalletFault.PAY_REJECTED,
    WalletFault.PAY_5XX,
    WalletFault.PAY_SLOW,
    WalletFault.PAY_CRASH_AFTER_CHARGE,
    WalletFault.QUERY_5XX
  };
  private static final WalletFault[] REFUND_FAULTS = {
    WalletFault.REFUND_RESPONSE_LOST,
    WalletFault.REFUND_PROCESSING,
    WalletFault.REFUND_FAILED_ONCE,
    WalletFault.REFUND_CRASH_AFTER
  };
  private static final Duration SLOW_MIN = Duration.ofMillis(20);
  private static final Duration SLOW_MAX = Duration.ofMillis(120);
  private static final Duration PROCESSING_MIN = Duration.ofMillis(50);
  private static final Duration PROCESSING_MAX = Duration.ofMillis(1_500);

  private final FaultPlan faults;
  private final Clock clock;
  private final Duration stall;
  private final Map<String, Order> orders = new ConcurrentHashMap<>();
  private final Map<String, Refund> refunds = new ConcurrentHashMap<>();
  private final List<LedgerEntry> ledger = new ArrayList<>();
  private final DueWork due = new DueWork();
  private volatile int lastSettleVisits;
  private final AtomicLong requestIds = new AtomicLong();
  private final AtomicLong calls = new AtomicLong();

  public SimWallet(FaultPlan faults, Clock clock) {
    this(faults, clock, Duration.ZERO);
  }

  /**
   * @param stall how long one in ten slow responses takes; set it above the engine's lease so that
   *     the scanner takes a flow over while its first worker is still inside the wallet call, and
   *     the two race to the CAS
   */
  public SimWallet(FaultPlan faults, Clock clock, Duration stall) {
    this.faults = faults;
    this.clock = clock;
    this.stall = stall;
  }

  private enum OrderState {
    PROCESSING,
    SUCCESS,
    FAILED,
    CLOSED
  }

  private static final class Order {
    final String tradeOrderNo;
    final long amount;
    OrderState state;
    Instant completeAt;
    String failure;
    boolean faultApplied;
    int queryCalls;

    /**
     * Sum of the refund numbers accepted against this order (any state: they may still execute).
     */
    long refundsAccepted;

    Order(String tradeOrderNo, long amount) {
      this.tradeOrderNo = tradeOrderNo;
      this.amount = amount;
    }
  }

  private static final class Refund {
    final String refundOrderNo;
    final String tradeOrderNo;
    final long amount;
    OrderState state;
    Instant completeAt;
    int calls;

    Refund(String refundOrderNo, String tradeOrderNo, long amount) {
      this.refundOrderNo = refundOrderNo;
      this.tradeOrderNo = tradeOrderNo;
      this.amount = amount;
    }
  }

  public WalletFault payFault(String tradeOrderNo) {
    return faults.pick("wallet.pay", tradeOrderNo, WalletFault.NONE, PAY_FAULTS);
  }

  public WalletFault refundFault(String refundOrderNo) {
    return faults.pick("wallet.refund", refundOrderNo, WalletFault.NONE, REFUND_FAULTS);
  }

  @Override
  public WalletResult pay(ChargeRequest request) {
    calls.incrementAndGet();
    String no = request.tradeOrderNo();
    WalletFault fault = payFault(no);
    if (fault == WalletFault.PAY_SLOW) {
      boolean stalls = !stall.isZero() && faults.unit("wallet.stall", no, 0) < 0.1;
      sleep(stalls ? stall : faults.duration("wallet.slow", no, SLOW_MIN, SLOW_MAX));
    }
    Order order = orders.computeIfAbsent(no, k -> new Order(k, request.amount()));
    synchronized (order) {
      boolean first = !order.faultApplied;
      order.faultApplied = true;
      if (order.state != null) {
        return answer(order);
      }
      if (order.amount != request.amount()) {
        return WalletResult.failed("PARAMETER_MISMATCH", rid(), false);
      }
      if (first) {
        switch (fault) {
          case PAY_TIMEOUT_BEFORE:
            return WalletResult.unknown("TIMEOUT");
          case PAY_REJECTED:
            order.state = OrderState.FAILED;
            order.failure = "INSUFFICIENT_BALANCE";
            return answer(order);
          case PAY_PROCESSING:
            order.state = OrderState.PROCESSING;
            order.completeAt =
                clock
                    .instant()
                    .plus(faults.duration("wallet.processing", no, PROCESSING_MIN, PROCESSING_MAX));
            due.schedule(order.completeAt, () -> settleDue(order));
            return WalletResult.processing(rid());
          case PAY_RESPONSE_LOST:
            charge(order);
            return WalletResult.unknown("TIMEOUT");
          case PAY_5XX:
            charge(order);
            return WalletResult.unknown("HTTP_502");
          case PAY_CRASH_AFTER_CHARGE:
            charge(order);
            throw new SimulatedCrash("charge " + no);
          default:
            break;
        }
      }
      charge(order);
      return answer(order);
    }
  }

  @Override
  public WalletResult queryPayment(String tradeOrderNo) {
    calls.incrementAndGet();
    Order order = orders.get(tradeOrderNo);
    if (order == null) {
      return WalletResult.noRecord(rid());
    }
    synchronized (order) {
      order.queryCalls++;
      if (order.queryCalls == 1 && payFault(tradeOrderNo) == WalletFault.QUERY_5XX) {
        return WalletResult.unknown("HTTP_503");
      }
      if (order.state == null) {
        return WalletResult.noRecord(rid());
      }
      return answer(order);
    }
  }

  @Override
  public WalletResult closePayment(String tradeOrderNo) {
    calls.incrementAndGet();
    Order order = orders.computeIfAbsent(tradeOrderNo, k -> new Order(k, 0));
    synchronized (order) {
      settleProcessing(order);
      if (order.state == OrderState.SUCCESS) {
        return WalletResult.failed("ALREADY_PAID", rid(), false);
      }
      if (order.state == null || order.state == OrderState.PROCESSING) {
        order.state = OrderState.CLOSED;
      }
      return WalletResult.success(rid());
    }
  }

  @Override
  public WalletResult refund(RefundRequest request) {
    calls.incrementAndGet();
    String no = request.refundOrderNo();
    Order paid = orders.get(request.tradeOrderNo());
    if (paid == null) {
      return WalletResult.failed("TRADE_NOT_FOUND", rid(), false);
    }
    synchronized (paid) {
      settleProcessing(paid);
      if (paid.state != OrderState.SUCCESS) {
        return WalletResult.failed("TRADE_NOT_PAID", rid(), false);
      }
      if (request.amount() > paid.amount) {
        return WalletResult.failed("REFUND_EXCEEDS_PAYMENT", rid(), false);
      }
      // A new refund number is accepted only if it fits, with every number accepted before, into
      // the charge (partial refunds are cumulative). Checked and registered under the order's
      // monitor, so two new numbers racing on one order cannot both take the same room.
      if (!refunds.containsKey(no)) {
        if (request.amount() > paid.amount - paid.refundsAccepted) {
          return WalletResult.failed("REFUND_EXCEEDS_PAYMENT", rid(), false);
        }
        refunds.put(no, new Refund(no, request.tradeOrderNo(), request.amount()));
        paid.refundsAccepted += request.amount();
      }
    }
    Refund refund =
        refunds.computeIfAbsent(no, k -> new Refund(k, request.tradeOrderNo(), request.amount()));
    synchronized (refund) {
      refund.calls++;
      settleRefund(refund);
      if (refund.state == OrderState.SUCCESS || refund.state == OrderState.PROCESSING) {
        return answer(refund);
      }
      if (refund.calls == 1) {
        WalletResult faulted = firstRefundCall(refund, refundFault(no));
        if (faulted != null) {
          return faulted;
        }
      }
      refundNow(refund);
      return answer(refund);
    }
  }

  /** The first call of a refund number under its scripted fault; null when the fault is none. */
  private WalletResult firstRefundCall(Refund refund, WalletFault fault) {
    String no = refund.refundOrderNo;
    switch (fault) {
      case REFUND_RESPONSE_LOST:
        refundNow(refund);
        return WalletResult.unknown("TIMEOUT");
      case REFUND_PROCESSING:
        refund.state = OrderState.PROCESSING;
        refund.completeAt =
            clock
                .instant()
                .plus(faults.duration("wallet.rprocessing", no, PROCESSING_MIN, PROCESSING_MAX));
        due.schedule(refund.completeAt, () -> settleDue(refund));
        return WalletResult.processing(rid());
      case REFUND_FAILED_ONCE:
        refund.state = OrderState.FAILED;
        return WalletResult.failed("MERCHANT_BALANCE_LOW", rid(), true);
      case REFUND_CRASH_AFTER:
        refundNow(refund);
        throw new SimulatedCrash("refund " + no);
      default:
        return null;
    }
  }

  @Override
  public WalletResult queryRefund(String refundOrderNo) {
    calls.incrementAndGet();
    Refund refund = refunds.get(refundOrderNo);
    if (refund == null) {
      return WalletResult.noRecord(rid());
    }
    synchronized (refund) {
      settleRefund(refund);
      if (refund.state == null) {
        return WalletResult.noRecord(rid());
      }
      return answer(refund);
    }
  }

  /** Every charge and refund executed so far, in execution order. */
  public List<LedgerEntry> ledger() {
    synchronized (ledger) {
      return List.copyOf(ledger);
    }
  }

  /** The ledger after its first {@code from} entries: it is append-only, so keep a cursor. */
  public List<LedgerEntry> ledgerSince(int from) {
    synchronized (ledger) {
      return from >= ledger.size() ? List.of() : List.copyOf(ledger.subList(from, ledger.size()));
    }
  }

  /** Completes the PROCESSING orders and refunds due (the wallet's own background), only those. */
  public void settleAll() {
    List<Runnable> work = due.takeDue(clock.instant());
    work.forEach(Runnable::run);
    lastSettleVisits = work.size();
  }

  int lastSettleVisits() {
    return lastSettleVisits;
  }

  public long calls() {
    return calls.get();
  }

  // ---- internals (callers hold the order's or refund's monitor) ----------------------------

  private WalletResult answer(Order order) {
    settleProcessing(order);
    return switch (order.state) {
      case SUCCESS -> WalletResult.success(rid());
      case PROCESSING -> WalletResult.processing(rid());
      case FAILED -> WalletResult.failed(order.failure, rid(), false);
      case CLOSED -> WalletResult.failed("ORDER_CLOSED", rid(), false);
    };
  }

  private WalletResult answer(Refund refund) {
    return switch (refund.state) {
      case SUCCESS -> WalletResult.success(rid());
      case PROCESSING -> WalletResult.processing(rid());
      case FAILED -> WalletResult.failed("MERCHANT_BALANCE_LOW", rid(), true);
      case CLOSED -> WalletResult.failed("REFUND_CLOSED", rid(), false);
    };
  }

  private void settleProcessing(Order order) {
    if (order.state == OrderState.PROCESSING && !clock.instant().isBefore(order.completeAt)) {
      charge(order);
    }
  }

  /** Due at the instant its settlement took: it completes now unless it has already ended. */
  private void settleDue(Order order) {
    synchronized (order) {
      if (order.state == OrderState.PROCESSING) {
        charge(order);
      }
    }
  }

  /** Due at the instant its settlement took: it completes now unless it has already ended. */
  private void settleDue(Refund refund) {
    synchronized (refund) {
      if (refund.state == OrderState.PROCESSING) {
        refundNow(refund);
      }
    }
  }

  private void settleRefund(Refund refund) {
    if (refund.state == OrderState.PROCESSING && !clock.instant().isBefore(refund.completeAt)) {
      refundNow(refund);
    }
  }

  private void charge(Order order) {
    order.state = OrderState.SUCCESS;
    record(LedgerEntry.Kind.CHARGE, order.tradeOrderNo, order.tradeOrderNo, order.amount);
  }

  private void refundNow(Refund refund) {
    refund.state = OrderState.SUCCESS;
    record(LedgerEntry.Kind.REFUND, refund.refundOrderNo, refund.tradeOrderNo, refund.amount);
  }

  private void record(LedgerEntry.Kind kind, String orderNo, String tradeOrderNo, long amount) {
    synchronized (ledger) {
      ledger.add(new LedgerEntry(kind, orderNo, tradeOrderNo, amount, clock.instant()));
    }
  }

  private String rid() {
    return "wreq-" + requestIds.incrementAndGet();
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
