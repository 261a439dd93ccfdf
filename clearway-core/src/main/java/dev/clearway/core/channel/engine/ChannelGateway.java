package dev.clearway.core.channel.engine;

import dev.clearway.core.channel.decision.AttemptDecision;
import dev.clearway.core.channel.decision.FailoverDecision;
import dev.clearway.core.channel.decision.FailoverGuard;
import dev.clearway.core.channel.decision.MethodAdmission;
import dev.clearway.core.channel.decision.Router;
import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptOrigin;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.domain.PaymentOrder;
import dev.clearway.core.channel.port.AttemptStore;
import dev.clearway.core.channel.port.ChannelAccountStore;
import dev.clearway.core.channel.port.PaymentDetailsStore;
import dev.clearway.core.channel.port.PaymentOrderStore;
import dev.clearway.core.channel.port.RecoveryTaskStore;
import dev.clearway.core.channel.spi.PaymentParty;
import dev.clearway.core.channel.spi.PspAdapter;
import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.flow.port.WalletGateway;
import dev.clearway.core.runtime.TokenMint;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The channel layer seen from the flow engine: one "wallet" whose orders are paid through attempts
 * across PSPs. The flow's trade order number is the payment order; each attempt is bound to one
 * channel account with its own provider idempotency key.
 *
 * <p>Queries are answered from local facts only; the network work of recovering an attempt is the
 * recovery worker's ({@link RecoveryWorker}). Refunds go to the channel account of the charged
 * attempt (see {@link ChannelRefunds}).
 *
 * <p>Leases: a new attempt's task is held by the creating call until its create's grace ends, and
 * the create's answer is recorded under that lease; a replay of a live attempt first takes the
 * task's lease ({@link dev.clearway.core.channel.port.RecoveryTaskStore#holdTask}) and is not sent
 * while a recovery worker holds it. A close is an order from the flow above, recorded like a
 * webhook against the version it read.
 */
public final class ChannelGateway implements WalletGateway {

  private final ChannelContext ctx;
  private final PaymentOrderStore orders;
  private final AttemptStore attemptStore;
  private final ChannelAccountStore accountStore;
  private final RecoveryTaskStore tasks;
  private final CreateExecutor executor;
  private final PaymentMethods methods;
  private final ChannelRefunds refunds;
  private final AttemptInserter inserter;
  private final PaymentDetails paymentDetails;
  private final TokenMint tokens = new TokenMint("gateway");

  public ChannelGateway(ChannelContext ctx, PaymentMethods methods) {
    this(ctx, methods, PaymentDetailsStore.NONE);
  }

  /**
   * A gateway that routes each merchant by its channel configurations in {@code details} and keeps
   * there what the customer's client needs to complete a payment.
   */
  public ChannelGateway(ChannelContext ctx, PaymentMethods methods, PaymentDetailsStore details) {
    this.ctx = ctx;
    this.paymentDetails = new PaymentDetails(ctx, details, this::routable);
    this.orders = ctx.stores().orders();
    this.attemptStore = ctx.stores().attempts();
    this.accountStore = ctx.stores().accounts();
    this.tasks = ctx.stores().tasks();
    this.executor = new CreateExecutor(ctx, new AttemptRecorder(ctx), details);
    this.methods = methods;
    this.refunds = new ChannelRefunds(ctx);
    this.inserter = new AttemptInserter(ctx);
  }

  @Override
  public WalletResult pay(ChargeRequest request) {
    PaymentMethods.Choice method = methods.choose(request);
    Instant now = ctx.clock().instant();
    PaymentOrder order = open(request, method.family(), now);
    if (order.closed()) {
      return WalletResult.failed("ORDER_CLOSED", null, false);
    }
    if (order.amount() != request.amount() || !order.currency().equals(request.currency())) {
      return WalletResult.failed("ORDER_PARAMETERS_DIFFER", null, false);
    }
    Map<Long, ChannelAccount> accounts = accountsById();
    // Each round either answers or creates one attempt; a failover adds at most one per domain.
    for (int round = 0; round <= accounts.size(); round++) {
      List<Attempt> attempts = attemptStore.attempts(request.tradeOrderNo());
      Optional<Attempt> charged = firstSucceeded(attempts);
      if (charged.isPresent()) {
        return WalletResult.success(charged.get().providerPaymentId());
      }
      Optional<Attempt> live = attempts.stream().filter(a -> !a.isFinal()).findFirst();
      if (live.isPresent()) {
        return continueLive(live.get(), order.paymentMethod());
      }
      FailoverDecision guard = FailoverGuard.evaluate(attempts, accounts);
      if (!guard.allowed()) {
        ctx.events().failoverDenied(guard.reason().name());
        return failedAs(attempts.get(attempts.size() - 1));
      }
      MethodAdmission.Result admitted =
          paymentDetails.admit(method.merchant(), order.paymentMethod(), order.amount());
      Optional<ChannelAccount> route =
          Router.route(
              admitted.candidates().stream().map(MethodAdmission.Candidate::account).toList(),
              order.paymentMethod(),
              guard.excludedDomains(),
              ctx.health());
      if (route.isEmpty()) {
        return noRoute(attempts);
      }
      PaymentParty party =
          new PaymentParty(admitted.subMerchantOf(route.get().id()).orElse(null), method.payer());
      Attempt previous = attempts.isEmpty() ? null : attempts.get(attempts.size() - 1);
      if (previous != null) {
        ctx.events().failover(previous.channelAccountId(), route.get().id());
      }
      AttemptOrigin origin = previous == null ? AttemptOrigin.INITIAL : AttemptOrigin.FAILOVER;
      String lease = tokens.next();
      Optional<Attempt> created =
          inserter.insert(
              order, route.get(), previous, guard, method.token(), party, origin, lease, now);
      if (created.isEmpty()) {
        continue; // Race: another caller created the next attempt; re-read and join it.
      }
      Attempt after =
          executor.create(created.get(), order.paymentMethod(), versionOf(created.get()), lease);
      if (after.status() != AttemptStatus.FAILED) {
        return asWalletResult(after);
      }
    }
    return WalletResult.unknown("FAILOVER_ROUNDS_EXHAUSTED");
  }

  private PaymentOrder open(ChargeRequest request, String family, Instant now) {
    return orders.openOrder(
        new PaymentOrder(
            request.tradeOrderNo(), request.amount(), request.currency(), family, false),
        now);
  }

  private WalletResult noRoute(List<Attempt> attempts) {
    ctx.events().failoverDenied(FailoverDecision.DenyReason.NO_ROUTE.name());
    return attempts.isEmpty()
        ? WalletResult.failed("NO_ROUTE", null, false)
        : failedAs(attempts.get(attempts.size() - 1));
  }

  /** Routing by the merchants' channel configurations and the client actions of attempts. */
  public PaymentDetails details() {
    return paymentDetails;
  }

  /** Error code: a business retry while the previous attempt's result is not known. */
  public static final String PREVIOUS_NOT_FINAL = "PREVIOUS_ATTEMPT_NOT_FINAL";

  /**
   * A business retry: the customer changed the payment method (another card, after a 3-D Secure
   * challenge they could not pass) while the order is still open. A pending attempt that waits for
   * the customer is closed at its PSP first; an attempt whose result is not known refuses the retry
   * ({@link #PREVIOUS_NOT_FINAL}), since it may still charge. The new attempt has origin
   * BUSINESS_RETRY, a new key and the new method; routing excludes nothing (the channel did not
   * fail, the method changed).
   */
  public WalletResult retryWithMethod(String tradeOrderNo, String methodToken) {
    Optional<PaymentOrder> found = orders.order(tradeOrderNo);
    if (found.isEmpty()) {
      return WalletResult.noRecord(null);
    }
    PaymentOrder order = found.get();
    List<Attempt> attempts = attemptStore.attempts(tradeOrderNo);
    Optional<Attempt> charged = firstSucceeded(attempts);
    if (charged.isPresent()) {
      return WalletResult.success(charged.get().providerPaymentId());
    }
    if (order.closed()) {
      return WalletResult.failed("ORDER_CLOSED", null, false);
    }
    Optional<Attempt> live = attempts.stream().filter(a -> !a.isFinal()).findFirst();
    if (live.isPresent()) {
      if (live.get().status() != AttemptStatus.PENDING || !live.get().customerActionPending()) {
        return WalletResult.unknown(PREVIOUS_NOT_FINAL);
      }
      // On the request thread: a close only if the account's pace has a slot free now.
      Attempt closed =
          new AttemptCloser(ctx).close(live.get(), versionOf(live.get()), ctx.clock().instant());
      if (closed.status() == AttemptStatus.SUCCEEDED) {
        return WalletResult.success(closed.providerPaymentId());
      }
      if (!closed.isFinal()) {
        return WalletResult.unknown(PREVIOUS_NOT_FINAL);
      }
      attempts = attemptStore.attempts(tradeOrderNo);
    }
    Attempt previous = attempts.isEmpty() ? null : attempts.get(attempts.size() - 1);
    Optional<ChannelAccount> route =
        Router.route(
            routable(accountStore.accounts()), order.paymentMethod(), Set.of(), ctx.health());
    if (route.isEmpty()) {
      return WalletResult.failed("NO_ROUTE", null, false);
    }
    Instant now = ctx.clock().instant();
    String lease = tokens.next();
    Optional<Attempt> created =
        inserter.insert(
            order,
            route.get(),
            previous,
            FailoverDecision.allow(Set.of()),
            methodToken,
            previous == null ? PaymentParty.NONE : previous.money().party(),
            previous == null ? AttemptOrigin.INITIAL : AttemptOrigin.BUSINESS_RETRY,
            lease,
            now);
    if (created.isEmpty()) {
      return WalletResult.unknown(PREVIOUS_NOT_FINAL); // raced with another attempt
    }
    return asWalletResult(
        executor.create(created.get(), order.paymentMethod(), versionOf(created.get()), lease));
  }

  private WalletResult continueLive(Attempt live, String family) {
    PspAdapter adapter = ctx.adapters().adapter(live.channelAccountId());
    if (live.status() == AttemptStatus.PENDING
        || !adapter.capabilities().supportsIdempotentReplay()) {
      return asWalletResult(live);
    }
    Instant now = ctx.clock().instant();
    String lease = tokens.next();
    if (!tasks.holdTask(live.id(), lease, now.plus(ctx.createGrace()), now)) {
      // A recovery worker holds the attempt (it replays or retrieves itself), or a person does:
      // answer from the row rather than race them to the PSP.
      return asWalletResult(live);
    }
    // Transport replay: same attempt, same key, same parameters. Never a new attempt.
    return asWalletResult(executor.replay(live, family, versionOf(live), null, 0, lease));
  }

  /**
   * The provider idempotency key of attempt {@code id}: fixed, 16 characters, letters and digits
   * only (WeChat Pay's out_trade_no takes 6 to 32 of them; Stripe's keys up to 255).
   */
  public static String keyFor(long attemptId) {
    return "cwa" + padded36(attemptId);
  }

  /** {@code id} in base 36, left-padded with zeros to 13 characters (all of a positive long). */
  public static String padded36(long id) {
    String digits = Long.toString(id, 36);
    return "0".repeat(Math.max(0, 13 - digits.length())) + digits;
  }

  private String versionOf(Attempt attempt) {
    return ctx.policies().versionFor(attempt.tradeOrderNo());
  }

  @Override
  public WalletResult queryPayment(String tradeOrderNo) {
    Optional<PaymentOrder> order = orders.order(tradeOrderNo);
    List<Attempt> attempts = attemptStore.attempts(tradeOrderNo);
    if (order.isEmpty() || attempts.isEmpty()) {
      return order.isPresent() && order.get().closed()
          ? WalletResult.failed("ORDER_CLOSED", null, false)
          : WalletResult.noRecord(null);
    }
    Optional<Attempt> charged = firstSucceeded(attempts);
    if (charged.isPresent()) {
      return WalletResult.success(charged.get().providerPaymentId());
    }
    Optional<Attempt> live = attempts.stream().filter(a -> !a.isFinal()).findFirst();
    if (live.isPresent()) {
      return asWalletResult(live.get());
    }
    if (order.get().closed()) {
      return WalletResult.failed("ORDER_CLOSED", null, false);
    }
    Map<Long, ChannelAccount> accounts = accountsById();
    FailoverDecision guard = FailoverGuard.evaluate(attempts, accounts);
    boolean canFailOver =
        guard.allowed()
            && Router.route(
                    routable(accounts.values()),
                    order.get().paymentMethod(),
                    guard.excludedDomains(),
                    ctx.health())
                .isPresent();
    // Nothing live, nothing charged, and the guard allows another channel: sending the order
    // again is safe, which is what NO_RECORD tells the flow.
    return canFailOver ? WalletResult.noRecord(null) : failedAs(attempts.get(attempts.size() - 1));
  }

  @Override
  public WalletResult closePayment(String tradeOrderNo) {
    return closePayment(tradeOrderNo, null);
  }

  @Override
  public WalletResult closePayment(String tradeOrderNo, Instant leaseUntil) {
    List<Attempt> attempts = attemptStore.attempts(tradeOrderNo);
    if (firstSucceeded(attempts).isPresent()) {
      return WalletResult.failed("ALREADY_PAID", null, false);
    }
    Optional<Attempt> live = attempts.stream().filter(a -> !a.isFinal()).findFirst();
    if (live.isPresent()) {
      Attempt closed = new AttemptCloser(ctx).close(live.get(), versionOf(live.get()), leaseUntil);
      if (closed.status() == AttemptStatus.SUCCEEDED) {
        return WalletResult.failed("ALREADY_PAID", null, false);
      }
      if (!closed.isFinal()) {
        return WalletResult.unknown(orDefault(closed.errorCode(), "CLOSE_UNKNOWN"));
      }
    }
    if (orders.closeOrder(tradeOrderNo, "CLOSED_BY_FLOW", ctx.clock().instant())) {
      return WalletResult.success(null);
    }
    return WalletResult.unknown("CLOSE_RACED");
  }

  @Override
  public WalletResult refund(RefundRequest request) {
    return refunds.refund(request, null);
  }

  @Override
  public WalletResult refund(RefundRequest request, Instant leaseUntil) {
    return refunds.refund(request, leaseUntil);
  }

  @Override
  public WalletResult queryRefund(String refundOrderNo) {
    return refunds.query(refundOrderNo, null);
  }

  @Override
  public WalletResult queryRefund(String refundOrderNo, Instant leaseUntil) {
    return refunds.query(refundOrderNo, leaseUntil);
  }

  /** Every account (the guard needs the failure domains of past attempts). */
  private Map<Long, ChannelAccount> accountsById() {
    return accountStore.accounts().stream()
        .collect(Collectors.toMap(ChannelAccount::id, Function.identity()));
  }

  /** The accounts new attempts may be routed to: those this process has an adapter for. */
  List<ChannelAccount> routable(java.util.Collection<ChannelAccount> accounts) {
    return accounts.stream().filter(a -> ctx.adapters().serves(a.id())).toList();
  }

  static Optional<Attempt> firstSucceeded(List<Attempt> attempts) {
    return attempts.stream().filter(a -> a.status() == AttemptStatus.SUCCEEDED).findFirst();
  }

  private static WalletResult asWalletResult(Attempt a) {
    return switch (a.status()) {
      case SUCCEEDED -> WalletResult.success(a.providerPaymentId());
      case FAILED -> failedAs(a);
      case PENDING -> WalletResult.processing(a.providerPaymentId());
      case CREATED, UNKNOWN ->
          AttemptDecision.NOT_FOUND_AT_PSP.equals(a.errorCode())
              ? WalletResult.noRecord(null)
              : WalletResult.unknown(orDefault(a.errorCode(), "ATTEMPT_UNKNOWN"));
    };
  }

  private static WalletResult failedAs(Attempt a) {
    return WalletResult.failed(orDefault(a.errorCode(), "ATTEMPT_FAILED"), null, false);
  }

  private static String orDefault(String s, String fallback) {
    return s == null ? fallback : s;
  }
}
