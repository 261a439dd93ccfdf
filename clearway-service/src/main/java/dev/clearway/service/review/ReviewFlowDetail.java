package dev.clearway.service.review;

import dev.clearway.service.api.Page;
import dev.clearway.store.review.AuditEntry;
import dev.clearway.store.review.HistoryEntry;
import dev.clearway.store.review.ManualCommand;

/**
 * One flow in review: its facts and the first page (newest first) of its timeline, its commands and
 * its audit trail; each list's further pages come from its own sub-resource.
 */
public record ReviewFlowDetail(
    ReviewFlowView flow,
    Page<HistoryEntry> history,
    Page<ManualCommand> commands,
    Page<AuditEntry> audit) {}
