package dev.clearway.service.api;

import dev.clearway.core.channel.spi.ClientAction;
import dev.clearway.core.flow.domain.ClientStatus;
import dev.clearway.core.flow.domain.PayFlow;
import java.time.Instant;
import java.util.Map;

/**
 * The flow resource as clients see it: identities, frozen money, the client status projected from
 * the status and the review state, and when to poll again (null once the status is final); while
 * the payment waits for the customer (REQUIRES_ACTION), what the customer's client needs.
 */
public record FlowView(
    long flowId,
    String tradeOrderNo,
    int attemptNo,
    long userId,
    String scene,
    String bizKey,
    long amount,
    String currency,
    Instant bizDeadline,
    ClientStatus status,
    String state,
    boolean cancelRequested,
    Long pollAfterMs,
    NextAction nextAction) {

  static final long POLL_AFTER_MS = 2_000;

  /**
   * What the customer's client does to complete a payment in REQUIRES_ACTION: {@code type} {@code
   * WECHAT_NATIVE} (show {@code code_url} as a QR code), {@code WECHAT_JSAPI} (invoke the payment
   * with {@code appId, timeStamp, nonceStr, package, signType, paySign}) or {@code
   * STRIPE_NEXT_ACTION} ({@code client_secret}, {@code next_action}, {@code redirect_url}).
   */
  public record NextAction(String type, Map<String, String> fields) {}

  public static FlowView of(PayFlow f) {
    return of(f, false, null);
  }

  /**
   * The view of a flow whose payment {@code awaitsCustomer}, with what the customer's client needs
   * ({@code action}, may be null).
   */
  public static FlowView of(PayFlow f, boolean awaitsCustomer, ClientAction action) {
    ClientStatus status = ClientStatus.of(f, awaitsCustomer);
    NextAction next =
        status == ClientStatus.REQUIRES_ACTION && action != null
            ? new NextAction(action.kind().name(), action.fields())
            : null;
    return new FlowView(
        f.id(),
        f.tradeOrderNo(),
        f.attemptNo(),
        f.goal().userId(),
        f.goal().scene(),
        f.goal().bizKey(),
        f.amount(),
        f.currency(),
        f.bizDeadline(),
        status,
        f.status().name(),
        f.isCancelRequested(),
        status.isFinal() ? null : POLL_AFTER_MS,
        next);
  }
}
