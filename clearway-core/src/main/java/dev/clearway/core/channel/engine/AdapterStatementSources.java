package dev.clearway.core.channel.engine;

import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.port.AdapterRegistry;
import dev.clearway.core.channel.port.ChannelAccountStore;
import dev.clearway.core.channel.spi.PspAdapter;
import dev.clearway.core.statement.StatementSource;
import dev.clearway.core.statement.StatementSources;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The statement sources of the channel accounts this process serves: an account reference names a
 * channel account, whose adapter is the source when it publishes a statement. Other accounts (the
 * wallet) are given as fixed sources and win over a channel account of the same reference.
 */
public final class AdapterStatementSources implements StatementSources {
  private final ChannelAccountStore accounts;
  private final AdapterRegistry adapters;
  private final Map<String, StatementSource> others;

  public AdapterStatementSources(
      ChannelAccountStore accounts, AdapterRegistry adapters, Map<String, StatementSource> others) {
    this.accounts = Objects.requireNonNull(accounts, "accounts");
    this.adapters = Objects.requireNonNull(adapters, "adapters");
    this.others = Map.copyOf(others);
  }

  @Override
  public Optional<StatementSource> source(String accountRef) {
    StatementSource fixed = others.get(accountRef);
    if (fixed != null) {
      return Optional.of(fixed);
    }
    Optional<ChannelAccount> account =
        accounts.accounts().stream().filter(a -> a.accountRef().equals(accountRef)).findFirst();
    if (account.isEmpty() || !adapters.serves(account.get().id())) {
      return Optional.empty();
    }
    PspAdapter adapter = adapters.adapter(account.get().id());
    return adapter.settlementReportAvailable()
        ? Optional.of(adapter::downloadStatement)
        : Optional.empty();
  }
}
