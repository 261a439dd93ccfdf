package dev.clearway.lab.recon;

import dev.clearway.core.reconciliation.domain.AccountTerms;
import dev.clearway.core.reconciliation.port.AccountTermsSource;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Map;
import java.util.Optional;

/**
 * The terms agreed with the run's two simulated PSPs: the card account takes 2.9% + 0.30 a charge
 * and its balance report is counted in UTC days; the wallet account takes 0.60% and its trade bill
 * is counted in China Standard Time days. A movement must be on a statement within a day.
 */
final class ChaosTerms implements AccountTermsSource {

  private final Map<String, AccountTerms> terms;
  private final Map<String, ZoneId> zones;

  ChaosTerms(String cardAccount, String walletAccount) {
    this.terms =
        Map.of(
            cardAccount,
            new AccountTerms(cardAccount, Duration.ofDays(1), 29_000, 30, "CNY"),
            walletAccount,
            new AccountTerms(walletAccount, Duration.ofDays(1), 6_000, 0, "CNY"));
    this.zones = Map.of(cardAccount, ZoneId.of("UTC"), walletAccount, ZoneId.of("Asia/Shanghai"));
  }

  @Override
  public Optional<AccountTerms> terms(String account) {
    return Optional.ofNullable(terms.get(account));
  }

  @Override
  public ZoneId statementZone(String account) {
    return zones.getOrDefault(account, ZoneId.of("UTC"));
  }
}
