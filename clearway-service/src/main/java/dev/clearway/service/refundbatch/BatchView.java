package dev.clearway.service.refundbatch;

import dev.clearway.core.refundbatch.domain.BatchProgress;
import dev.clearway.core.refundbatch.domain.ItemOutcome;
import dev.clearway.core.refundbatch.domain.RefundBatch;
import dev.clearway.core.refundbatch.port.RefundBatchCommands.AuditLine;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One batch as people read it: scope, state, who proposed and decided it, whether a runner holds
 * it, and its progress (items per outcome, and the share that is final). The audit is present on
 * the single-batch answer only.
 */
public record BatchView(
    long id,
    String merchant,
    String scene,
    Instant paidFrom,
    Instant paidTo,
    List<String> bizKeys,
    String state,
    long version,
    String proposer,
    String approver,
    String ticket,
    String reason,
    String decisionNote,
    boolean held,
    Instant dueAt,
    int totalItems,
    Map<String, Integer> progress,
    int finishedItems,
    Instant createdAt,
    Instant decidedAt,
    Instant finishedAt,
    List<AuditLine> audit) {

  static BatchView of(RefundBatch b, BatchProgress p, List<AuditLine> audit) {
    Map<String, Integer> counts = new TreeMap<>();
    for (ItemOutcome o : ItemOutcome.values()) {
      counts.put(o.name(), p.count(o));
    }
    return new BatchView(
        b.id(),
        b.scope().merchant(),
        b.scope().scene(),
        b.scope().paidFrom(),
        b.scope().paidTo(),
        b.scope().bizKeys(),
        b.state().name(),
        b.version(),
        b.proposer(),
        b.approver(),
        b.ticket(),
        b.reason(),
        b.decisionNote(),
        b.leaseOwner() != null,
        b.dueAt(),
        b.totalItems(),
        counts,
        p.finished(),
        b.createdAt(),
        b.decidedAt(),
        b.finishedAt(),
        audit);
  }
}
