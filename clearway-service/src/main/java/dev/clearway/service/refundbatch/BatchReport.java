package dev.clearway.service.refundbatch;

import dev.clearway.core.refundbatch.port.RefundBatchCommands.ReportLine;
import java.util.List;
import java.util.Map;

/**
 * A batch's report: the counts per outcome (refunded, already refunded, failed, needing a person,
 * and those still open) and a page of the items of one outcome ({@code next}: the cursor of the
 * next page, null at the end).
 */
public record BatchReport(
    long batchId,
    String state,
    Map<String, Integer> counts,
    String outcome,
    List<ReportLine> items,
    Long next) {}
