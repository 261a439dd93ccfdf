package dev.clearway.core.reconciliation.engine;

/**
 * The ports one run reads a statement through in chunks of lines: the file's lines handed out a
 * chunk at a time, the local lookups and settlement statuses of each chunk read ahead in batches,
 * and the settlement marks written a chunk at a time. The wrappers hold the state of one run: made
 * afresh for each.
 */
final class BatchedRunPorts {
  private BatchedRunPorts() {}

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
