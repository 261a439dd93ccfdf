package dev.clearway.core.refundbatch.port;

import dev.clearway.core.refundbatch.domain.BatchProgress;
import dev.clearway.core.refundbatch.domain.BatchScope;
import dev.clearway.core.refundbatch.domain.BatchState;
import dev.clearway.core.refundbatch.domain.ItemOutcome;
import dev.clearway.core.refundbatch.domain.RefundBatch;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Maker/checker over refund batches and the reads of the console. A proposal selects the payments
 * in scope at that moment (one item each) in the same transaction; an approval by another person
 * makes the batch runnable; pause, resume and cancel are compare-and-set on the batch's version.
 * Every act writes an audit line in its transaction; a refusal writes nothing.
 */
public interface RefundBatchCommands {

  /** The largest batch one proposal may select. */
  int MAX_ITEMS = 200_000;

  record Proposal(BatchScope scope, String proposer, String ticket, String reason) {}

  /** What a command did. */
  sealed interface Result {
    record Done(RefundBatch batch) implements Result {}

    /** Refused with a stable code; nothing written. */
    record Refused(String code, String message) implements Result {}

    record NotFound() implements Result {}
  }

  Result propose(Proposal proposal, Instant now);

  Result approve(long batchId, String approver, Instant now);

  Result reject(long batchId, String approver, String note, Instant now);

  /** APPROVED or RUNNING to PAUSED; the runner's lease is dropped, its next write refused. */
  Result pause(long batchId, String actor, String role, Instant now);

  /** PAUSED to RUNNING, due now, for the next runner to claim. */
  Result resume(long batchId, String actor, String role, Instant now);

  /** PROPOSED (by its proposer or an approver) or PAUSED to CANCELLED. */
  Result cancel(long batchId, String actor, String role, Instant now);

  Optional<RefundBatch> find(long batchId);

  /** Batches newest first, optionally of one state, with an id below {@code beforeId}. */
  List<RefundBatch> list(BatchState state, long beforeId, int limit);

  BatchProgress progress(long batchId);

  /** One item in a report. */
  record ReportLine(
      long itemId, long flowId, long amount, ItemOutcome outcome, Long refundId, String detail) {}

  /** Items of the batch with {@code outcome}, by id above {@code afterId}. */
  List<ReportLine> items(long batchId, ItemOutcome outcome, long afterId, int limit);

  /** One audit line. */
  record AuditLine(String actor, String role, String action, String detail, Instant at) {}

  List<AuditLine> audit(long batchId);
}
