package dev.clearway.psp.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.engine.ChannelContext;
import dev.clearway.core.channel.engine.ChannelGateway;
import dev.clearway.core.channel.engine.PaymentMethods;
import dev.clearway.core.channel.engine.RecoveryWorker;
import dev.clearway.core.channel.engine.StatementRecovery;
import dev.clearway.core.channel.policy.RecoveryStrategy;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import dev.clearway.core.reconciliation.domain.AccountTerms;
import dev.clearway.core.reconciliation.port.AccountTermsSource;
import dev.clearway.core.statement.Statement;
import dev.clearway.core.statement.StatementFileRecord;
import dev.clearway.core.statement.StatementFormat;
import dev.clearway.core.statement.StatementImporter;
import dev.clearway.psp.stripe.StripeBalanceReportParser;
import dev.clearway.store.reconciliation.JdbcStatementFacts;
import dev.clearway.store.statement.JdbcStatementStore;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The RECONCILIATION recovery strategy settles an attempt whose result only the statement can tell
 * from the statements imported into the real database: a charge line records it SUCCEEDED, the
 * statements' silence once both days are imported and the settlement window has passed records it
 * FAILED, both with RECONCILIATION evidence; a line for another amount goes to a person; anything
 * short of that waits the policy's delay.
 */
class RecoveryReconciliationTest {
  private static final String ACCOUNT = "acct_1";
  private static final LocalDate DAY = LocalDate.of(2026, 12, 1);
  private static final String HEADER =
      "id,type,amount,fee,net,currency,created,source,metadata_attempt_key,"
          + "refund_metadata_refund_no\n";

  private ChannelTestRig rig;
  private JdbcStatementStore statementStore;
  private StatementImporter importer;
  private final ExecutorService pool = Executors.newFixedThreadPool(2);

  @BeforeEach
  void setUp() throws SQLException {
    rig = new ChannelTestRig();
    try (Connection c = rig.dataSource.getConnection();
        java.sql.Statement st = c.createStatement()) {
      st.execute("TRUNCATE statement_line, statement_file RESTART IDENTITY CASCADE");
    }
    statementStore = new JdbcStatementStore(rig.dataSource, rig.clock);
    importer =
        new StatementImporter(
            statementStore,
            Map.of(StatementFormat.STRIPE_BALANCE, new StripeBalanceReportParser()));
  }

  @AfterEach
  void tearDown() {
    pool.shutdownNow();
  }

  private static AccountTermsSource terms(Duration window) {
    return new AccountTermsSource() {
      @Override
      public Optional<AccountTerms> terms(String account) {
        return Optional.of(new AccountTerms(account, window, 29_000, 30, "EUR"));
      }

      @Override
      public ZoneId statementZone(String account) {
        return ZoneOffset.UTC;
      }
    };
  }

  private RecoveryWorker worker(ChannelContext ctx, Duration window) {
    return new RecoveryWorker(
        ctx,
        new RecoveryWorker.Settings("w1", 10, Duration.ofSeconds(45)),
        (loop, cause) -> {
          throw new AssertionError(loop, cause);
        },
        new StatementRecovery(new JdbcStatementFacts(rig.dataSource), terms(window)));
  }

  /** An attempt whose create answered nothing, recovered only by the statements. */
  private Attempt unknownAttempt(ChannelContext ctx, String trade) {
    rig.a.onCreate(PspOutcome.unknown("read_timeout"));
    new ChannelGateway(ctx, PaymentMethods.fixed("card", "pm_card_visa"))
        .pay(new ChargeRequest(trade, 7, 1_000, "EUR"));
    Attempt attempt = rig.stores.attempts().attempts(trade).get(0);
    assertThat(attempt.status()).isEqualTo(AttemptStatus.UNKNOWN);
    return attempt;
  }

  private ChannelContext context() {
    return rig.context(
        ChannelTestRig.rule(List.of(RecoveryStrategy.RECONCILIATION), Duration.ofDays(7)));
  }

  private StatementFileRecord importDay(LocalDate day, String... lines) {
    StringBuilder csv = new StringBuilder(HEADER);
    for (String line : lines) {
      csv.append(line).append('\n');
    }
    StatementFileRecord file =
        importer.importStatement(
            ACCOUNT,
            day,
            Statement.unhashed(
                StatementFormat.STRIPE_BALANCE, csv.toString().getBytes(StandardCharsets.UTF_8)));
    assertThat(file.status()).isEqualTo(StatementFileRecord.Status.IMPORTED);
    return file;
  }

  private static String charge(String txn, long amount, String key) {
    long fee = (amount * 29 + 500) / 1000 + 30;
    long created = DAY.atStartOfDay(ZoneOffset.UTC).toEpochSecond() + 60;
    return txn
        + ",charge,"
        + amount
        + ","
        + fee
        + ","
        + (amount - fee)
        + ",eur,"
        + created
        + ",pi_"
        + txn
        + ","
        + key
        + ",";
  }

  private long reconciliationEvidence(Attempt attempt) {
    return rig.count(
        "SELECT count(*) FROM provider_evidence WHERE source = 'RECONCILIATION' AND attempt_id = "
            + attempt.id());
  }

  private String task(Attempt attempt, String column) {
    return rig.text("SELECT " + column + " FROM recovery_task WHERE attempt_id = " + attempt.id());
  }

  @Test
  void aChargeLineOfTheAttemptRecordsItSucceeded() {
    ChannelContext ctx = context();
    Attempt attempt = unknownAttempt(ctx, "t_charged");
    importDay(DAY, charge("txn1", 1_000, attempt.providerIdempotencyKey()));
    rig.clock.advance(Duration.ofMinutes(1));

    assertThat(worker(ctx, Duration.ofDays(1)).runOnce(pool)).isEqualTo(1);

    Attempt after = rig.stores.attempts().attempts("t_charged").get(0);
    assertThat(after.status()).isEqualTo(AttemptStatus.SUCCEEDED);
    assertThat(after.providerPaymentId()).isEqualTo("pi_txn1");
    assertThat(reconciliationEvidence(attempt)).isEqualTo(1);
    assertThat(task(attempt, "status")).isEqualTo("RESOLVED");
    assertThat(rig.woken).contains("t_charged");
  }

  @Test
  void silenceOfBothDaysAfterTheWindowRecordsItFailed() {
    ChannelContext ctx = context();
    Attempt attempt = unknownAttempt(ctx, "t_silent");
    importDay(DAY, charge("txn2", 1_000, "someone_else"));
    importDay(DAY.plusDays(1));
    rig.clock.advance(Duration.ofDays(2));

    assertThat(worker(ctx, Duration.ofDays(1)).runOnce(pool)).isEqualTo(1);

    Attempt after = rig.stores.attempts().attempts("t_silent").get(0);
    assertThat(after.status()).isEqualTo(AttemptStatus.FAILED);
    assertThat(after.errorCode()).isEqualTo(RecoveryWorker.NOT_ON_STATEMENT);
    assertThat(reconciliationEvidence(attempt)).isEqualTo(1);
    assertThat(task(attempt, "status")).isEqualTo("RESOLVED");
  }

  @Test
  void withoutTheNextDaysStatementOrBeforeTheWindowEndsTheTaskWaits() {
    ChannelContext ctx = context();
    Attempt attempt = unknownAttempt(ctx, "t_early");
    importDay(DAY);
    rig.clock.advance(Duration.ofDays(2));

    assertThat(worker(ctx, Duration.ofDays(1)).runOnce(pool)).isEqualTo(1);

    assertThat(rig.stores.attempts().attempts("t_early").get(0).status())
        .isEqualTo(AttemptStatus.UNKNOWN);
    assertThat(task(attempt, "status")).isEqualTo("READY");
    assertThat(task(attempt, "last_error")).isEqualTo("WAITING_STATEMENT_NOT_IMPORTED");
    assertThat(reconciliationEvidence(attempt)).isZero();

    importDay(DAY.plusDays(1));
    rig.clock.advance(Duration.ofMinutes(1));
    // Both days are in, but this account's window (three days) is still open.
    assertThat(worker(ctx, Duration.ofDays(3)).runOnce(pool)).isEqualTo(1);
    assertThat(rig.stores.attempts().attempts("t_early").get(0).status())
        .isEqualTo(AttemptStatus.UNKNOWN);
    assertThat(task(attempt, "last_error")).isEqualTo("WAITING_SETTLEMENT_WINDOW_OPEN");
  }

  @Test
  void aChargeLineForAnotherAmountGoesToAPerson() {
    ChannelContext ctx = context();
    Attempt attempt = unknownAttempt(ctx, "t_amount");
    importDay(DAY, charge("txn3", 1_200, attempt.providerIdempotencyKey()));
    rig.clock.advance(Duration.ofMinutes(1));

    assertThat(worker(ctx, Duration.ofDays(1)).runOnce(pool)).isEqualTo(1);

    assertThat(rig.stores.attempts().attempts("t_amount").get(0).status())
        .isEqualTo(AttemptStatus.UNKNOWN);
    assertThat(task(attempt, "status")).isEqualTo("MANUAL");
    assertThat(task(attempt, "last_error")).isEqualTo("STATEMENT_AMOUNT_MISMATCH");
    assertThat(reconciliationEvidence(attempt)).isZero();
  }

  @Test
  void aWorkerWithoutStatementsOnlyWaitsAsBefore() {
    ChannelContext ctx = context();
    Attempt attempt = unknownAttempt(ctx, "t_legacy");
    importDay(DAY, charge("txn4", 1_000, attempt.providerIdempotencyKey()));
    rig.clock.advance(Duration.ofMinutes(1));

    RecoveryWorker legacy =
        new RecoveryWorker(ctx, new RecoveryWorker.Settings("w0", 10, Duration.ofSeconds(45)));
    assertThat(legacy.runOnce(pool)).isEqualTo(1);

    assertThat(rig.stores.attempts().attempts("t_legacy").get(0).status())
        .isEqualTo(AttemptStatus.UNKNOWN);
    assertThat(task(attempt, "last_error")).isEqualTo("WAITING_RECONCILIATION");
  }
}
