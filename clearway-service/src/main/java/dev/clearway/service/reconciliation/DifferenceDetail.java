package dev.clearway.service.reconciliation;

import dev.clearway.core.reconciliation.domain.TicketAudit;
import dev.clearway.core.reconciliation.domain.TicketCommand;
import dev.clearway.service.api.Page;
import dev.clearway.store.reconciliation.DifferenceMove;
import dev.clearway.store.reconciliation.StatementLineEvidence;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * One difference with its evidence: both sides as recorded when it was found, the statement line it
 * was found on (null when the statement has none), its state history oldest first, and the first
 * page of its ticket commands and audit.
 */
public record DifferenceDetail(
    DifferenceView difference,
    JsonNode evidence,
    StatementLineEvidence statementLine,
    List<DifferenceMove> history,
    Page<TicketCommand> commands,
    Page<TicketAudit> audit) {}
