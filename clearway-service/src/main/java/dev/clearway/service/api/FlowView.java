package dev.clearway.service.api;

import dev.clearway.core.flow.domain.ClientStatus;
import dev.clearway.core.flow.domain.PayFlow;
import java.time.Instant;

/**
 * The flow resource as clients see it: identities, frozen money, the client status projected from
 * the status and the review state, and when to poll again (null once the status is final).
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
    Long pollAfterMs) {

  static final long POLL_AFTER_MS = 2_000;

  public static FlowView of(PayFlow f) {
    ClientStatus status = ClientStatus.of(f);
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
        status.isFinal() ? null : POLL_AFTER_MS);
  }
}
