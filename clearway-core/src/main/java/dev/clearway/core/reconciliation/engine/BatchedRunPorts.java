package dev.clearway.core.reconciliation.engine;

import dev.clearway.core.reconciliation.port.AgreeingLines;

/**
 * The ports one run reads a statement through in chunks of lines: the file's lines handed out a
 * chunk at a time, the local lookups and settlement statuses of each chunk read ahead in batches,
 * and the settlement marks written a chunk at a time. The wrappers hold the state of one run: made
 * afresh for each.
 */
final class BatchedRunPorts {
  private BatchedRunPorts() {}

  /** As {@link #of(ReconPorts)}, the file's lines being those the claim left to the matcher. */
  static ReconPorts of(ReconPorts ports, long fileId, AgreeingLines.Claim claim) {
    return of(
        new ReconPorts(
            ports.statements(),
            new RemainingLines(ports.facts(), fileId, claim),
            ports.locals(),
            ports.localDay(),
            ports.business(),
            ports.terms(),
            ports.runs(),
            ports.differences(),
            ports.settlements(),
            ports.events()));
  }

  static ReconPorts of(ReconPorts ports) {
    PrefetchedLocalFacts locals = new PrefetchedLocalFacts(ports.locals());
    BufferedSettlements settlements = new BufferedSettlements(ports.settlements());
    return new ReconPorts(
        ports.statements(),
        new ChunkedStatementFacts(ports.facts(), locals, settlements),
        locals,
        ports.localDay(),
        ports.business(),
        ports.terms(),
        ports.runs(),
        ports.differences(),
        settlements,
        ports.events());
  }
}
