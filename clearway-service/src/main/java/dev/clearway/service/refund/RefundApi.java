package dev.clearway.service.refund;

import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.refund.domain.NewRefund;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.engine.RefundService;
import dev.clearway.core.refund.port.RefundStore;
import dev.clearway.core.refund.port.RefundStore.CreateOutcome;
import dev.clearway.core.refundbatch.domain.BatchRefundKey;
import dev.clearway.core.runtime.Overloaded;
import dev.clearway.service.api.ApiException;
import dev.clearway.service.api.PaymentApi;
import dev.clearway.service.api.PaymentRequestValidator;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import org.springframework.http.HttpStatus;

/**
 * The after-sales refund API's rules, free of HTTP: validate, then let one database transaction
 * decide (key replay or reuse, flow BIZ_SUCCESS, amount within what is left), then advance the new
 * refund within the synchronous budget. Every refusal is raised before or instead of a write.
 */
public final class RefundApi {
  static final int MAX_REASON = 200;

  private final RefundService service;
  private final RefundStore refunds;
  private final FlowStore flows;
  private final Executor executor;
  private final Duration syncBudget;
  private final Duration retryAfter;

  public RefundApi(
      RefundService service,
      RefundStore refunds,
      FlowStore flows,
      Executor executor,
      Duration syncBudget,
      Duration retryAfter) {
    this.service = service;
    this.refunds = refunds;
    this.flows = flows;
    this.executor = executor;
    this.syncBudget = syncBudget;
    this.retryAfter = retryAfter;
  }

  /** The answer to a create: the refund, and whether this request created or replayed it. */
  public record Answer(RefundView refund, boolean created, boolean replayed) {}

  public Answer create(
      String merchant, long flowId, String idempotencyKey, CreateRefundRequest body) {
    PaymentRequestValidator.checkKey(idempotencyKey);
    if (BatchRefundKey.isReserved(idempotencyKey)) {
      throw ApiException.badRequest(
          "idempotency_key_reserved",
          "Idempotency-Keys starting with "
              + BatchRefundKey.PREFIX
              + " are reserved for batch refunds");
    }
    if (body == null) {
      throw ApiException.badRequest("missing_body", "a JSON body is required");
    }
    if (body.amount() == null || body.amount() <= 0) {
      throw ApiException.badRequest(
          "invalid_amount", "amount is required and must be a positive number of minor units");
    }
    String reason = body.reason();
    if (reason == null
        || reason.isBlank()
        || reason.length() > MAX_REASON
        || reason.chars().anyMatch(Character::isISOControl)) {
      throw ApiException.badRequest(
          "invalid_reason",
          "reason is required: at most " + MAX_REASON + " characters, no control characters");
    }
    NewRefund request = new NewRefund(flowId, body.amount(), reason, merchant, idempotencyKey);
    CreateOutcome outcome;
    try {
      outcome = service.request(request, syncBudget, executor);
    } catch (Overloaded full) {
      // The refund exists (its key is in its row): a retry with the same key replays it.
      throw ApiException.overloaded(
          "the refund was accepted but no worker is free to send it now; it goes on in the"
              + " background: retry with the same Idempotency-Key to read it",
          retryAfter);
    }
    if (outcome instanceof CreateOutcome.Created c) {
      return new Answer(RefundView.of(c.refund()), true, false);
    }
    if (outcome instanceof CreateOutcome.Replayed r) {
      return new Answer(RefundView.of(r.refund()), false, true);
    }
    throw refusal(outcome);
  }

  private static ApiException refusal(CreateOutcome outcome) {
    if (outcome instanceof CreateOutcome.KeyReused) {
      return new ApiException(
          HttpStatus.UNPROCESSABLE_CONTENT,
          "idempotency_key_reused",
          "this Idempotency-Key was used with other parameters");
    }
    if (outcome instanceof CreateOutcome.FlowNotFound) {
      return new ApiException(HttpStatus.NOT_FOUND, "flow_not_found", "no such payment flow");
    }
    if (outcome instanceof CreateOutcome.NotAllowed n) {
      return new ApiException(
          HttpStatus.CONFLICT,
          "refund_not_allowed",
          "a refund needs a payment whose business succeeded (state "
              + n.status()
              + "); a payment that did not reach BIZ_SUCCESS is refunded automatically");
    }
    CreateOutcome.ExceedsPayment e = (CreateOutcome.ExceedsPayment) outcome;
    return new ApiException(
        HttpStatus.UNPROCESSABLE_CONTENT,
        "refund_exceeds_payment",
        "at most "
            + e.available()
            + " can still be refunded (paid "
            + e.paid()
            + ", refunded or in flight "
            + e.held()
            + ")");
  }

  public RefundView get(String merchant, long refundId) {
    return refunds
        .find(refundId)
        .filter(r -> r.merchantId().equals(merchant))
        .map(RefundView::of)
        .orElseThrow(
            () -> new ApiException(HttpStatus.NOT_FOUND, "refund_not_found", "no such refund"));
  }

  /**
   * One page of the refunds of one of the merchant's flows, by seq: at most {@code limit} (1 to
   * 100, default 100) after the {@code cursor} (the {@code nextCursor} of the previous page).
   */
  public RefundPage byFlow(String merchant, long flowId, String cursor, Integer limit) {
    if (flows.find(flowId).filter(f -> f.goal().merchant().equals(merchant)).isEmpty()) {
      throw new ApiException(HttpStatus.NOT_FOUND, "flow_not_found", "no such payment flow");
    }
    int size = limit == null ? PaymentApi.MAX_PAGE : limit;
    if (size < 1 || size > PaymentApi.MAX_PAGE) {
      throw ApiException.badRequest(
          "invalid_parameter", "limit must be between 1 and " + PaymentApi.MAX_PAGE);
    }
    int afterSeq = afterSeq(cursor);
    List<RefundOrder> rows = refunds.findByFlow(flowId, afterSeq, size + 1);
    boolean more = rows.size() > size;
    List<RefundOrder> page = more ? rows.subList(0, size) : rows;
    String next = more ? Integer.toString(page.get(page.size() - 1).seq()) : null;
    return new RefundPage(page.stream().map(RefundView::of).toList(), next);
  }

  private static int afterSeq(String cursor) {
    if (cursor == null || cursor.isEmpty()) {
      return 0;
    }
    try {
      int seq = Integer.parseInt(cursor);
      if (seq < 1) {
        throw new NumberFormatException();
      }
      return seq;
    } catch (NumberFormatException e) {
      throw ApiException.badRequest(
          "invalid_cursor", "cursor must be the nextCursor of a previous page");
    }
  }

  /** One page of a flow's refunds by seq; {@code nextCursor} is null on the last page. */
  public record RefundPage(List<RefundView> refunds, String nextCursor) {}
}
