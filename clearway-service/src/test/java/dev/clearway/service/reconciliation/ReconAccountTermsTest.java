package dev.clearway.service.reconciliation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.reconciliation.domain.AccountTerms;
import dev.clearway.core.reconciliation.domain.ReconCounts;
import dev.clearway.core.reconciliation.domain.ReconRun;
import dev.clearway.core.reconciliation.domain.ReconRunStatus;
import dev.clearway.core.reconciliation.port.ReconRuns;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * The accounts' terms read from properties (defaults for an account not configured, a bad value
 * stops the start), and the daily run's choice of the day to reconcile in the account's zone.
 */
class ReconAccountTermsTest {

  private static Map<String, Object> properties() {
    Map<String, Object> p = new HashMap<>();
    p.put("clearway.reconciliation.defaults.settlement-window", "36h");
    p.put("clearway.reconciliation.defaults.currency", "EUR");
    p.put("clearway.reconciliation.accounts.wx_main.zone", "Asia/Shanghai");
    p.put("clearway.reconciliation.accounts.wx_main.fee-rate-ppm", "6000");
    p.put("clearway.reconciliation.accounts.wx_main.currency", "CNY");
    p.put("clearway.reconciliation.accounts.wx_main.available-at", "09:30");
    p.put("clearway.reconciliation.accounts.acct_stripe.fixed-fee-minor", "30");
    p.put("clearway.reconciliation.accounts.acct_stripe.settlement-window", "3d");
    return p;
  }

  private static StandardEnvironment environment() {
    return environment(properties());
  }

  private static StandardEnvironment environment(Map<String, Object> properties) {
    StandardEnvironment env = new StandardEnvironment();
    env.getPropertySources().addFirst(new MapPropertySource("test", properties));
    return env;
  }

  @Test
  void configuredAccountsGetTheirTermsAndOthersTheDefaults() {
    ConfiguredAccountTerms terms = AccountTermsProperties.read(environment());

    assertThat(terms.configuredAccounts()).containsExactlyInAnyOrder("wx_main", "acct_stripe");
    AccountTerms wx = terms.terms("wx_main").orElseThrow();
    assertThat(wx.feeRatePpm()).isEqualTo(6000);
    assertThat(wx.currency()).isEqualTo("CNY");
    assertThat(wx.settlementWindow()).isEqualTo(Duration.ofHours(36));
    assertThat(terms.statementZone("wx_main")).isEqualTo(ZoneId.of("Asia/Shanghai"));
    AccountTerms stripe = terms.terms("acct_stripe").orElseThrow();
    assertThat(stripe.fixedFeeMinor()).isEqualTo(30);
    assertThat(stripe.settlementWindow()).isEqualTo(Duration.ofDays(3));
    assertThat(stripe.currency()).isEqualTo("EUR");
    AccountTerms other = terms.terms("unknown").orElseThrow();
    assertThat(other.account()).isEqualTo("unknown");
    assertThat(other.settlementWindow()).isEqualTo(Duration.ofHours(36));
    assertThat(other.feeRatePpm()).isZero();
    assertThat(terms.statementZone("unknown")).isEqualTo(ZoneId.of("UTC"));
  }

  @Test
  void aValueThatDoesNotParseStopsTheStartNamingTheProperty() {
    Map<String, Object> p = properties();
    p.put("clearway.reconciliation.accounts.wx_main.zone", "Mars/Base");
    StandardEnvironment bad = environment(p);
    assertThatThrownBy(() -> AccountTermsProperties.read(bad))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("clearway.reconciliation.accounts.wx_main.zone is not valid");
    Map<String, Object> n = properties();
    n.put("clearway.reconciliation.defaults.fee-rate-ppm", "-1");
    StandardEnvironment negative = environment(n);
    assertThatThrownBy(() -> AccountTermsProperties.read(negative))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theDailyRunReconcilesTheLatestAvailableDayInTheAccountsZoneOnce() {
    ConfiguredAccountTerms terms = AccountTermsProperties.read(environment());
    // 01:00 UTC is 09:00 in Shanghai: the bill of the day before is not out until 09:30.
    Instant early = Instant.parse("2026-12-02T01:00:00Z");
    List<String> ran = new ArrayList<>();
    List<ReconRun> latest = new ArrayList<>();
    DailyReconciliation daily = daily(terms, early, ran, latest);
    assertThat(daily.availableDay("wx_main")).isEqualTo(LocalDate.of(2026, 11, 30));
    // 10:00 UTC is past 10:00 in UTC (the default time) and past 09:30 in Shanghai.
    Instant later = Instant.parse("2026-12-02T10:00:00Z");
    DailyReconciliation after = daily(terms, later, ran, latest);
    assertThat(after.availableDay("wx_main")).isEqualTo(LocalDate.of(2026, 12, 1));
    assertThat(after.availableDay("acct_stripe")).isEqualTo(LocalDate.of(2026, 12, 1));

    after.checkRound();
    assertThat(ran).containsExactlyInAnyOrder("wx_main 2026-12-01", "acct_stripe 2026-12-01");
    // Both DONE: the next check runs nothing; a FAILED run is run again.
    latest.add(run("wx_main", LocalDate.of(2026, 12, 1), ReconRunStatus.DONE));
    latest.add(run("acct_stripe", LocalDate.of(2026, 12, 1), ReconRunStatus.FAILED));
    ran.clear();
    after.checkRound();
    assertThat(ran).containsExactly("acct_stripe 2026-12-01");
  }

  private static DailyReconciliation daily(
      ConfiguredAccountTerms terms, Instant now, List<String> ran, List<ReconRun> latest) {
    ReconRunner runner =
        new ReconRunner(
            ReconSteps.Fetch.NONE,
            (account, day) -> {
              ran.add(account + " " + day);
              return Optional.empty();
            },
            () -> 0,
            null);
    return new DailyReconciliation(
        terms, new LatestRuns(latest), runner, () -> 0, Clock.fixed(now, ZoneOffset.UTC));
  }

  private static ReconRun run(String account, LocalDate day, ReconRunStatus status) {
    Instant at = Instant.parse("2026-12-02T10:00:00Z");
    return new ReconRun(
        1,
        account,
        day,
        null,
        status,
        null,
        null,
        ReconCounts.none(),
        status == ReconRunStatus.FAILED ? "x" : null,
        at,
        at);
  }

  /** Only the latest runs are read by the daily check. */
  private record LatestRuns(List<ReconRun> latest) implements ReconRuns {
    @Override
    public Optional<ReconRun> start(
        String account, LocalDate day, Long fileId, String owner, Instant leaseUntil, Instant now) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean renew(long runId, String owner, Instant leaseUntil) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean finish(long runId, String owner, ReconCounts counts, Instant now) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean fail(long runId, String owner, String error, Instant now) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<ReconRun> latestPerAccount() {
      return List.copyOf(latest);
    }

    @Override
    public Optional<ReconRun> find(long runId) {
      return Optional.empty();
    }
  }
}
