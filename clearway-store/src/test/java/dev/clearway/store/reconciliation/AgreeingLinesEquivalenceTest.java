package dev.clearway.store.reconciliation;

import static dev.clearway.store.reconciliation.ReconFixture.DAY;
import static dev.clearway.store.reconciliation.ReconFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.reconciliation.domain.AccountTerms;
import dev.clearway.core.reconciliation.engine.ReconConfig;
import dev.clearway.core.reconciliation.engine.ReconPorts;
import dev.clearway.core.reconciliation.engine.ReconciliationJob;
import dev.clearway.core.reconciliation.port.AccountTermsSource;
import dev.clearway.core.reconciliation.port.AgreeingLines;
import dev.clearway.core.reconciliation.port.ReconciliationEvents;
import dev.clearway.store.statement.JdbcStatementStore;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The set-based path settles exactly what the plain Java path settles and leaves the same
 * differences: over generated days (agreeing lines of every flow status that agrees, every charge
 * and refund difference, partial refunds, ambiguous keys, duplicate lines, settlement rows already
 * there, lines of the neighbouring day's file), each run twice, the recorded differences (class,
 * identity, confidence, state, amounts) and the settlement statuses are identical.
 */
class AgreeingLinesEquivalenceTest {
  static final String ACCOUNT = "psp-a";
  static final AccountTerms TERMS =
      new AccountTerms(ACCOUNT, Duration.ofHours(6), 29_000, 30, "EUR");

  /** {@link #TERMS}' fee of a 500 charge. */
  static final long FEE = 45;

  private final ReconFixture fx = new ReconFixture();
  private long claimed;
  private final Clock clock = Clock.fixed(T0.plus(Duration.ofDays(3)), ZoneOffset.UTC);

  @Test
  void theSetBasedPathFindsWhatThePlainPathFinds() {
    assertThat(TERMS.expectedChargeFee(500)).isEqualTo(FEE);
    long base = new Random().nextLong();
    for (int round = 0; round < 6; round++) {
      long seed = base + round;
      List<String> plain = runDay(seed, false);
      claimed = 0;
      List<String> fast = runDay(seed, true);
      assertThat(claimed).as("seed %d: lines settled set-based", seed).isPositive();
      assertThat(fast).as("seed %d", seed).isEqualTo(plain);
      assertThat(plain).as("seed %d", seed).anyMatch(row -> row.startsWith("settled SETTLED"));
    }
  }

  /** Generates the seed's day, runs the job twice, and lists what each run left. */
  private List<String> runDay(long seed, boolean setBased) {
    fx.reset();
    new DayGenerator(fx, new Random(seed), FEE).write(ACCOUNT);
    ReconciliationJob job = job(setBased);
    List<String> seen = new java.util.ArrayList<>();
    for (int run = 1; run <= 2; run++) {
      ReconciliationJob.Result result = job.run(ACCOUNT, DAY);
      assertThat(result.outcome())
          .as("seed %d: %s", seed, result.detail())
          .isEqualTo(ReconciliationJob.Outcome.DONE);
      seen.add(
          "run "
              + run
              + " lines "
              + result.counts().lines()
              + " differences "
              + result.counts().differences()
              + " new "
              + result.counts().newDifferences());
      seen.addAll(
          fx.strings(
              "SELECT concat_ws(' ', 'difference', kind, identity, trade_order_no, refund_order_no,"
                  + " statement_file_id, statement_line_no, statement_amount, local_amount,"
                  + " currency, confidence, state, repair_kind, actionable_at, detail)"
                  + " FROM recon_difference ORDER BY kind, identity"));
      seen.addAll(
          fx.strings(
              "SELECT concat_ws(' ', 'settled', s.status, s.trade_order_no, s.statement_file_id,"
                  + " d.kind, d.identity)"
                  + " FROM payment_settlement_in_effect s LEFT JOIN recon_difference d ON d.id = s.difference_id"
                  + " ORDER BY s.trade_order_no"));
    }
    return seen;
  }

  private ReconciliationJob job(boolean setBased) {
    JdbcLocalFacts locals = new JdbcLocalFacts(fx.ds, ReconFixture.WALLET);
    ReconPorts ports =
        new ReconPorts(
            new JdbcStatementStore(fx.ds, clock),
            new JdbcStatementFacts(fx.ds),
            locals,
            locals,
            goal -> Optional.empty(),
            new AccountTermsSource() {
              @Override
              public Optional<AccountTerms> terms(String account) {
                return ACCOUNT.equals(account) ? Optional.of(TERMS) : Optional.empty();
              }

              @Override
              public ZoneId statementZone(String account) {
                return ZoneOffset.UTC;
              }
            },
            new JdbcReconRuns(fx.ds, fx.dialect),
            new JdbcDifferenceStore(fx.ds, fx.dialect),
            new JdbcSettlementStore(fx.ds, fx.dialect),
            ReconciliationEvents.NONE);
    ReconConfig config = ReconConfig.defaults("equivalence");
    return setBased
        ? new ReconciliationJob(ports, config, clock, counted())
        : new ReconciliationJob(ports, config, clock);
  }

  /** The store's agreeing lines, counting the lines each claim settled. */
  private AgreeingLines counted() {
    JdbcAgreeingLines store = new JdbcAgreeingLines(fx.ds, fx.dialect, ReconFixture.WALLET);
    return (fileId, account, terms, at) -> {
      AgreeingLines.Claim claim = store.claim(fileId, account, terms, at);
      claimed += claim.agreed();
      return claim;
    };
  }
}
