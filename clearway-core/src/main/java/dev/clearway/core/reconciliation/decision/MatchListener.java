package dev.clearway.core.reconciliation.decision;

import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.StatementFact;

/** Told of every statement line matched to a local row, before the pair is classified. */
@FunctionalInterface
public interface MatchListener {
  /**
   * @param ambiguous the line names two local candidates (its attempt key is one flow's, its trade
   *     order no another's or none): the match is only a suggestion
   */
  void matched(StatementFact line, LocalFact local, boolean ambiguous);

  MatchListener NONE = (line, local, ambiguous) -> {};
}
