package dev.clearway.core.reconciliation.engine;

import dev.clearway.core.reconciliation.decision.RefundCandidates;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.domain.StatementKind;
import dev.clearway.core.reconciliation.port.StatementFacts;
import java.util.List;

/**
 * The refund lines of the files in force that may stand for one local refund: those carrying its
 * number; failing that, the refund lines of its payment (by trade order no or attempt key) that
 * carry no refund number and have the refund's amount, as a PSP's report that names refunds by its
 * own id shows them.
 */
final class RefundLines {
  private RefundLines() {}

  static List<StatementFact> of(StatementFacts facts, String account, LocalFact local) {
    String refundNo = local.refundOrderNo();
    List<StatementFact> numbered =
        refundNo == null ? List.of() : facts.refundLinesFor(account, refundNo);
    if (!numbered.isEmpty()) {
      return numbered;
    }
    long amount = RefundCandidates.refundAmount(local);
    return facts.linesFor(account, local.tradeOrderNo(), local.attemptKey()).stream()
        .filter(l -> l.kind() == StatementKind.REFUND && l.refundOrderNo() == null)
        .filter(l -> l.amountMinor() == amount)
        .toList();
  }
}
