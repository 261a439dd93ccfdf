package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.statement.Statement;
import dev.clearway.core.statement.StatementFormat;
import dev.clearway.core.statement.StatementSource;
import dev.clearway.core.statement.StatementSources;
import dev.clearway.store.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The daily run as configured by properties: an account whose statement of yesterday is available
 * is downloaded, imported and reconciled by the service on its own, once; its day shows as the
 * account's last run.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class ReconDailyHttpTest {
  private static final List<LocalDate> downloads = new CopyOnWriteArrayList<>();
  private static RunningApi api;

  @BeforeAll
  static void start() {
    RunningApi.resetDatabase();
    ReconSeed.reset();
    StatementSource daily =
        (account, day) -> {
          downloads.add(day);
          String file =
              "kind,order_no,trade_order_no,amount,currency,at\n"
                  + "charge,T_DAILY_1,T_DAILY_1,700,EUR,"
                  + day.atTime(9, 0).toInstant(ZoneOffset.UTC)
                  + "\n";
          return Statement.unhashed(
              StatementFormat.WALLET_CSV, file.getBytes(StandardCharsets.UTF_8));
        };
    api =
        RunningApi.startWith(
            Map.of("statementSources", StatementSources.of(Map.of("acct_daily", daily))),
            "clearway.reconciliation.accounts.acct_daily.zone=UTC",
            "clearway.reconciliation.accounts.acct_daily.available-at=00:00",
            "clearway.reconciliation.accounts.acct_daily.currency=EUR",
            "clearway.reconciliation.check-interval=300ms",
            "clearway.reconciliation.repair-interval=300ms");
  }

  @AfterAll
  static void stop() {
    api.close();
  }

  @Test
  void theStatementOfYesterdayIsReconciledOnceWithoutBeingAsked() throws Exception {
    LocalDate yesterday = LocalDate.now(ZoneOffset.UTC).minusDays(1);
    Instant giveUp = Instant.now().plus(Duration.ofSeconds(30));
    String last = null;
    while (Instant.now().isBefore(giveUp)) {
      last =
          ReconSeed.text(
              "SELECT statement_day || ' ' || status FROM recon_run"
                  + " WHERE account_ref = 'acct_daily' ORDER BY id DESC LIMIT 1");
      if ((yesterday + " DONE").equals(last)) {
        break;
      }
      Thread.sleep(100);
    }
    assertThat(last).isEqualTo(yesterday + " DONE");
    // Several checks later: still one run and one download of the day.
    Thread.sleep(1500);
    assertThat(
            ReconSeed.text(
                "SELECT count(*) FROM recon_run WHERE account_ref = 'acct_daily'"
                    + " AND statement_day = DATE '"
                    + yesterday
                    + "'"))
        .isEqualTo("1");
    assertThat(downloads).containsExactly(yesterday);

    RunningApi.Answer runs =
        api.call("GET", "/ops/reconciliation/runs").bearer(RunningApi.OPERATOR_KEY).send();
    assertThat(runs.body()).contains("\"account\":\"acct_daily\"").contains(yesterday.toString());
    // The unknown line was found, and the repair pass handed it to a person.
    Instant ticketBy = Instant.now().plus(Duration.ofSeconds(10));
    String state = null;
    while (Instant.now().isBefore(ticketBy) && !"NEEDS_PERSON".equals(state)) {
      state =
          ReconSeed.text(
              "SELECT state FROM recon_difference WHERE account_ref = 'acct_daily'"
                  + " AND kind = 'UNKNOWN_STATEMENT_LINE'");
      Thread.sleep(100);
    }
    assertThat(state).isEqualTo("NEEDS_PERSON");
  }
}
