package dev.clearway.core.reconciliation.decision;

import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.ReconWindow;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.port.BusinessFacts;
import dev.clearway.core.reconciliation.port.LocalFacts;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;

/**
 * One account-day, three ways: every statement line against the local side and the business, then
 * every local success of the day against what the statement showed. Streams both inputs; the
 * differences go to the sink as they are found.
 */
public final class Reconciliation {
  private final LocalFacts locals;
  private final BusinessFacts business;

  public Reconciliation(LocalFacts locals, BusinessFacts business) {
    this.locals = locals;
    this.business = business;
  }

  public void run(
      ReconWindow window,
      Iterator<StatementFact> statement,
      Iterator<LocalFact> localInWindow,
      Consumer<Difference> sink) {
    StatementMatcher matcher = new StatementMatcher(locals, business, window);
    while (statement.hasNext()) {
      matcher.match(statement.next()).forEach(sink);
    }
    UnseenLocalPass.run(localInWindow, matcher.seen(), window, sink);
  }

  /** {@link #run} collected into a list (small days, tests). */
  public List<Difference> differences(
      ReconWindow window, Iterator<StatementFact> statement, Iterator<LocalFact> localInWindow) {
    List<Difference> found = new ArrayList<>();
    run(window, statement, localInWindow, found::add);
    return found;
  }
}
