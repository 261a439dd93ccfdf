package dev.clearway.service.reconciliation;

import dev.clearway.core.channel.engine.AdapterStatementSources;
import dev.clearway.core.channel.port.AdapterRegistry;
import dev.clearway.core.channel.port.ChannelStores;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.WalletGateway;
import dev.clearway.core.statement.StatementDownloads;
import dev.clearway.core.statement.StatementFormat;
import dev.clearway.core.statement.StatementImporter;
import dev.clearway.core.statement.StatementSource;
import dev.clearway.core.statement.StatementSources;
import dev.clearway.psp.stripe.StripeBalanceReportParser;
import dev.clearway.psp.wechat.WechatTradeBillParser;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.statement.StatementStores;
import dev.clearway.store.statement.WalletCsvParser;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Where the daily statements come from and how they are imported: the importer with every parser,
 * and the statement source of each account. A channel account's adapter is its source when it
 * publishes a statement; the plain wallet ({@code clearway.reconciliation.wallet-account}, default
 * {@code wallet}) is one when its gateway downloads statements. An application may declare its own
 * {@link StatementSources} bean instead. An account with no source is reconciled against the file
 * in force (imported by hand with {@code ./clearway reconcile --file}).
 */
@Configuration(proxyBeanMethods = false)
public class ReconStatementsConfiguration {

  /** Takes the flow store so that Clearway's migrations have run first. */
  @Bean
  StatementImporter clearwayStatementImporter(
      DataSource dataSource,
      SqlDialect dialect,
      FlowStore migratedFirst,
      ObjectProvider<Clock> clock) {
    return new StatementImporter(
        StatementStores.create(dataSource, dialect, clock.getIfAvailable(Clock::systemUTC)),
        Map.of(
            StatementFormat.WALLET_CSV, new WalletCsvParser(),
            StatementFormat.STRIPE_BALANCE, new StripeBalanceReportParser(),
            StatementFormat.WECHAT_TRADEBILL, new WechatTradeBillParser()));
  }

  @Bean
  ReconSteps.Fetch clearwayStatementFetch(
      StatementImporter importer,
      ObjectProvider<StatementSources> declared,
      ObjectProvider<ChannelStores> channel,
      ObjectProvider<AdapterRegistry> adapters,
      ObjectProvider<WalletGateway> wallet,
      @Value("${clearway.reconciliation.wallet-account:wallet}") String walletAccount) {
    StatementSources sources =
        declared.getIfAvailable(() -> sources(channel, adapters, wallet, walletAccount));
    StatementDownloads downloads = new StatementDownloads(sources, importer);
    return (account, day) ->
        sources.source(account).isEmpty()
            ? Optional.empty()
            : Optional.of(downloads.download(account, day));
  }

  private static StatementSources sources(
      ObjectProvider<ChannelStores> channel,
      ObjectProvider<AdapterRegistry> adapters,
      ObjectProvider<WalletGateway> wallet,
      String walletAccount) {
    Map<String, StatementSource> fixed = new HashMap<>();
    if (wallet.getIfAvailable() instanceof StatementSource source) {
      fixed.put(walletAccount, source);
    }
    ChannelStores stores = channel.getIfAvailable();
    AdapterRegistry registry = adapters.getIfAvailable();
    if (stores != null && registry != null) {
      return new AdapterStatementSources(stores.accounts(), registry, fixed);
    }
    return StatementSources.of(fixed);
  }
}
