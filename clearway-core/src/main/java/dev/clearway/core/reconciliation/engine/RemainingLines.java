package dev.clearway.core.reconciliation.engine;

import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.port.AgreeingLines;
import dev.clearway.core.reconciliation.port.StatementFacts;
import java.util.stream.Stream;

/**
 * The statement facts of a run whose agreeing lines the store settled: the file's lines are the
 * claim's remaining ones (those left to the matcher); every other read goes to the store.
 */
final class RemainingLines extends StatementFactsDecorator {
  private final long fileId;
  private final AgreeingLines.Claim claim;

  RemainingLines(StatementFacts store, long fileId, AgreeingLines.Claim claim) {
    super(store);
    this.fileId = fileId;
    this.claim = claim;
  }

  @Override
  public Stream<StatementFact> lines(long fileId, String account) {
    if (fileId != this.fileId) {
      throw new IllegalArgumentException("the claim is of file " + this.fileId + ", not " + fileId);
    }
    return claim.remaining();
  }
}
