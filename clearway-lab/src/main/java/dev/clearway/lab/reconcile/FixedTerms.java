package dev.clearway.lab.reconcile;

import dev.clearway.core.reconciliation.domain.AccountTerms;
import dev.clearway.core.reconciliation.port.AccountTermsSource;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Optional;

/**
 * One set of terms for every account, as given on the command line: the settlement window, the fee
 * (proportional and fixed) and the zone the statement day is counted in.
 */
public record FixedTerms(
    Duration settlementWindow, long feeRatePpm, long fixedFeeMinor, String currency, ZoneId zone)
    implements AccountTermsSource {

  /** A day to settle, no fee, CNY, UTC days: the plain wallet's terms. */
  public static FixedTerms wallet() {
    return new FixedTerms(Duration.ofDays(1), 0, 0, "CNY", ZoneId.of("UTC"));
  }

  @Override
  public Optional<AccountTerms> terms(String account) {
    return Optional.of(
        new AccountTerms(account, settlementWindow, feeRatePpm, fixedFeeMinor, currency));
  }

  @Override
  public ZoneId statementZone(String account) {
    return zone;
  }
}
