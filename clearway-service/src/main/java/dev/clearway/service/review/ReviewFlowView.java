package dev.clearway.service.review;

import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.service.api.FlowView;
import java.time.Instant;

/**
 * A flow as the review queue shows it: the resource, the merchant that owns it (operators and
 * approvers see every merchant), and what a person needs to judge it.
 */
public record ReviewFlowView(
    FlowView flow,
    String merchantId,
    String reviewState,
    String reviewReason,
    String lastErrorCode,
    int retryCount,
    long version,
    Instant nextRetryTime,
    Instant updatedAt) {

  static ReviewFlowView of(PayFlow f) {
    return new ReviewFlowView(
        FlowView.of(f),
        f.goal().merchant(),
        f.reviewState().name(),
        f.reviewReason(),
        f.lastErrorCode(),
        f.retryCount(),
        f.version(),
        f.nextRetryTime(),
        f.updatedAt());
  }
}
