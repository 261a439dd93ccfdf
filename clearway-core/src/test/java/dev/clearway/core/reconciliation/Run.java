package dev.clearway.core.reconciliation;

import dev.clearway.core.reconciliation.decision.Reconciliation;
import dev.clearway.core.reconciliation.decision.RepairCommand;
import dev.clearway.core.reconciliation.decision.RepairDecision;
import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.StatementFact;
import java.time.Instant;
import java.util.List;

/** One reconciliation of the fixture day, and the repair of a difference as of a moment. */
final class Run {
  private Run() {}

  static List<Difference> day(InMemoryFacts facts, Instant asOf, List<StatementFact> lines) {
    return new Reconciliation(facts, facts)
        .differences(Day.window(asOf), lines.iterator(), facts.all().iterator());
  }

  static List<Difference> day(InMemoryFacts facts, List<StatementFact> lines) {
    return day(facts, Day.LATE, lines);
  }

  /** The repair decided from the difference's own local row (read again, unchanged). */
  static RepairCommand repair(Difference d, Instant now) {
    return RepairDecision.decide(d, d.local(), now);
  }
}
