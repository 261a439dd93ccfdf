package dev.clearway.core.statement;

import java.util.Map;
import java.util.Optional;

/** The statement source of each account, by account reference. */
@FunctionalInterface
public interface StatementSources {

  /** Empty when this process knows no statement source for the account. */
  Optional<StatementSource> source(String accountRef);

  /** A fixed table of sources. */
  static StatementSources of(Map<String, StatementSource> sources) {
    Map<String, StatementSource> copy = Map.copyOf(sources);
    return account -> Optional.ofNullable(copy.get(account));
  }
}
