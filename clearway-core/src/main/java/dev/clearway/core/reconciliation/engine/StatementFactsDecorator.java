package dev.clearway.core.reconciliation.engine;

import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.port.StatementFacts;
import java.time.LocalDate;
import java.util.List;
import java.util.OptionalLong;

/** Statement facts that change how a file's lines are read; every other read goes to the store. */
abstract class StatementFactsDecorator implements StatementFacts {
  protected final StatementFacts store;

  StatementFactsDecorator(StatementFacts store) {
    this.store = store;
  }

  @Override
  public final List<StatementFact> linesFor(
      String account, String tradeOrderNo, String attemptKey) {
    return store.linesFor(account, tradeOrderNo, attemptKey);
  }

  @Override
  public final List<StatementFact> refundLinesFor(String account, String refundOrderNo) {
    return store.refundLinesFor(account, refundOrderNo);
  }

  @Override
  public final boolean imported(String account, LocalDate day) {
    return store.imported(account, day);
  }

  @Override
  public final OptionalLong groupedFees(long fileId) {
    return store.groupedFees(fileId);
  }
}
