package dev.clearway.service.reconciliation;

import dev.clearway.core.reconciliation.domain.AccountTerms;
import dev.clearway.core.reconciliation.port.AccountTermsSource;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Each account's reconciliation terms from configuration ({@code
 * clearway.reconciliation.accounts.<ref>.settlement-window / fee-rate-ppm / fixed-fee-minor /
 * currency / zone / available-at}); an account that is not configured gets the defaults ({@code
 * clearway.reconciliation.defaults.*}).
 */
public final class ConfiguredAccountTerms implements AccountTermsSource {

  /**
   * One account's settings; a null field takes the default's.
   *
   * @param availableAt the time of day, in {@code zone}, from which the PSP's statement of the day
   *     before can be downloaded
   */
  public record Settings(
      Duration settlementWindow,
      Long feeRatePpm,
      Long fixedFeeMinor,
      String currency,
      ZoneId zone,
      LocalTime availableAt) {

    /** Two days to appear, no fee, CNY, UTC, available from 10:00. */
    public static Settings builtIn() {
      return new Settings(Duration.ofDays(2), 0L, 0L, "CNY", ZoneId.of("UTC"), LocalTime.of(10, 0));
    }

    Settings over(Settings base) {
      return new Settings(
          settlementWindow != null ? settlementWindow : base.settlementWindow,
          feeRatePpm != null ? feeRatePpm : base.feeRatePpm,
          fixedFeeMinor != null ? fixedFeeMinor : base.fixedFeeMinor,
          currency != null ? currency : base.currency,
          zone != null ? zone : base.zone,
          availableAt != null ? availableAt : base.availableAt);
    }
  }

  private final Settings defaults;
  private final Map<String, Settings> accounts = new LinkedHashMap<>();

  /**
   * @throws IllegalArgumentException when a configured value is negative
   */
  public ConfiguredAccountTerms(Settings defaults, Map<String, Settings> configured) {
    this.defaults = defaults.over(Settings.builtIn());
    configured.forEach(
        (ref, s) -> {
          Settings full = s.over(this.defaults);
          // Checked once at start: terms the matching could not use stop the start.
          terms(ref, full);
          accounts.put(ref, full);
        });
    terms("defaults", this.defaults);
  }

  /** The accounts named in configuration: the daily run reconciles these. */
  public Set<String> configuredAccounts() {
    return accounts.keySet();
  }

  public Settings settings(String account) {
    return accounts.getOrDefault(account, defaults);
  }

  @Override
  public Optional<AccountTerms> terms(String account) {
    return Optional.of(terms(account, settings(account)));
  }

  @Override
  public ZoneId statementZone(String account) {
    return settings(account).zone();
  }

  private static AccountTerms terms(String account, Settings s) {
    return new AccountTerms(
        account, s.settlementWindow(), s.feeRatePpm(), s.fixedFeeMinor(), s.currency());
  }
}
