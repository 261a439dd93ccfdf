package dev.clearway.core.reconciliation.engine;

import dev.clearway.core.reconciliation.port.AccountTermsSource;
import dev.clearway.core.reconciliation.port.BusinessFacts;
import dev.clearway.core.reconciliation.port.DifferenceStore;
import dev.clearway.core.reconciliation.port.LocalDay;
import dev.clearway.core.reconciliation.port.LocalFacts;
import dev.clearway.core.reconciliation.port.ReconRuns;
import dev.clearway.core.reconciliation.port.ReconciliationEvents;
import dev.clearway.core.reconciliation.port.SettlementStore;
import dev.clearway.core.reconciliation.port.StatementFacts;
import dev.clearway.core.statement.StatementStore;
import java.util.Objects;

/** Every port the reconciliation job and the repair pass read and write through. */
public record ReconPorts(
    StatementStore statements,
    StatementFacts facts,
    LocalFacts locals,
    LocalDay localDay,
    BusinessFacts business,
    AccountTermsSource terms,
    ReconRuns runs,
    DifferenceStore differences,
    SettlementStore settlements,
    ReconciliationEvents events) {
  public ReconPorts {
    Objects.requireNonNull(statements, "statements");
    Objects.requireNonNull(facts, "facts");
    Objects.requireNonNull(locals, "locals");
    Objects.requireNonNull(localDay, "localDay");
    Objects.requireNonNull(business, "business");
    Objects.requireNonNull(terms, "terms");
    Objects.requireNonNull(runs, "runs");
    Objects.requireNonNull(differences, "differences");
    Objects.requireNonNull(settlements, "settlements");
    Objects.requireNonNull(events, "events");
  }
}
