package dev.clearway.service.console;

import dev.clearway.service.api.Page;
import dev.clearway.service.api.PageCursor;
import dev.clearway.store.channel.JdbcOrderTimeline.AttemptTimeline;
import dev.clearway.store.channel.JdbcOrderTimeline.EvidenceRow;
import dev.clearway.store.channel.JdbcOrderTimeline.OrderTimeline;
import java.time.Instant;

/**
 * A payment order as the console shows it: the merchant of the flow it pays, and a page of its
 * attempts (newest first by seq), each with the first page of its evidence (newest first; more from
 * {@code /ops/console/channels/attempts/{attemptId}/evidence}).
 */
public record OrderView(
    String tradeOrderNo,
    String merchantId,
    long amount,
    String currency,
    String paymentMethod,
    String status,
    String closedReason,
    Instant createdAt,
    Page<AttemptView> attempts) {

  /** One attempt with a page of its evidence. */
  public record AttemptView(
      long attemptId,
      int seq,
      long channelAccountId,
      String channel,
      String accountRef,
      String origin,
      Long previousAttemptId,
      String status,
      String certainty,
      String errorCode,
      int replayCount,
      Instant createdAt,
      Instant updatedAt,
      String recoveryTaskStatus,
      String compensationStatus,
      Page<EvidenceRow> evidence) {

    static AttemptView of(AttemptTimeline a, int evidenceSize) {
      return new AttemptView(
          a.attemptId(),
          a.seq(),
          a.channelAccountId(),
          a.channel(),
          a.accountRef(),
          a.origin(),
          a.previousAttemptId(),
          a.status(),
          a.certainty(),
          a.errorCode(),
          a.replayCount(),
          a.createdAt(),
          a.updatedAt(),
          a.recoveryTaskStatus(),
          a.compensationStatus(),
          Page.byId(a.evidence(), evidenceSize, EvidenceRow::id));
    }
  }

  /**
   * The view of {@code o}, whose attempts were read with one more than {@code attemptSize} and
   * whose evidence with one more than {@code evidenceSize} per attempt.
   */
  static OrderView of(OrderTimeline o, int attemptSize, int evidenceSize) {
    return new OrderView(
        o.tradeOrderNo(),
        o.merchantId(),
        o.amount(),
        o.currency(),
        o.paymentMethod(),
        o.status(),
        o.closedReason(),
        o.createdAt(),
        Page.of(o.attempts(), attemptSize, a -> PageCursor.after(a.seq(), true))
            .map(a -> AttemptView.of(a, evidenceSize)));
  }
}
