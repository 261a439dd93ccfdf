package dev.clearway.store.reconciliation;

import static dev.clearway.core.flow.domain.FlowStatus.BIZ_SUCCESS;
import static dev.clearway.core.flow.domain.FlowStatus.CLOSED;
import static dev.clearway.core.flow.domain.FlowStatus.PAYED;
import static dev.clearway.core.flow.domain.FlowStatus.PAYING;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.reconciliation.decision.Tolerances;
import dev.clearway.core.reconciliation.domain.AccountTerms;
import dev.clearway.core.reconciliation.domain.DifferenceClass;
import dev.clearway.core.reconciliation.domain.SettlementStatus;
import dev.clearway.core.reconciliation.engine.ReconConfig;
import dev.clearway.core.reconciliation.engine.ReconPorts;
import dev.clearway.core.reconciliation.engine.ReconciliationJob;
import dev.clearway.core.reconciliation.engine.RepairPass;
import dev.clearway.core.reconciliation.port.AccountTermsSource;
import dev.clearway.core.reconciliation.port.ReconciliationEvents;
import dev.clearway.core.refund.domain.NewRefund;
import dev.clearway.core.refund.domain.RefundKind;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refund.port.RefundStore.CreateOutcome;
import dev.clearway.core.refund.port.RefundStore.TransitionWrite;
import dev.clearway.core.statement.Statement;
import dev.clearway.core.statement.StatementFileRecord;
import dev.clearway.core.statement.StatementFormat;
import dev.clearway.core.statement.StatementImporter;
import dev.clearway.core.statement.StatementLine;
import dev.clearway.core.statement.StatementLineKind;
import dev.clearway.core.statement.StatementParser;
import dev.clearway.store.PostgresDialect;
import dev.clearway.store.statement.JdbcStatementStore;
import dev.clearway.store.statement.WalletCsvParser;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The wallet's statement of one day, imported as a file, reconciled and repaired on the real
 * stores: a charge on an order closed without payment, a line no local row knows, fee lines that do
 * not add up, and a refund the wallet settled while the local refund is still processing.
 */
class ReconciliationEndToEndTest {
  static final String WALLET = "wallet";
  static final AccountTerms TERMS =
      new AccountTerms(WALLET, Duration.ofHours(6), 10_000, 0, RepairRig.CURRENCY);

  private RepairRig rig;
  private ReconPorts ports;
  private LocalDate day;
  private Instant charged;

  @BeforeEach
  void setUp() {
    new ReconFixture().reset();
    rig = new RepairRig().reset();
    charged = rig.now.minusSeconds(30);
    day = LocalDate.ofInstant(charged, ZoneOffset.UTC);
    PostgresDialect dialect = new PostgresDialect();
    ports =
        new ReconPorts(
            new JdbcStatementStore(rig.dataSource, rig.clock),
            new JdbcStatementFacts(rig.dataSource),
            new JdbcLocalFacts(rig.dataSource, WALLET),
            new JdbcLocalFacts(rig.dataSource, WALLET),
            goal -> Optional.empty(),
            new AccountTermsSource() {
              @Override
              public Optional<AccountTerms> terms(String account) {
                return WALLET.equals(account) ? Optional.of(TERMS) : Optional.empty();
              }

              @Override
              public ZoneId statementZone(String account) {
                return ZoneOffset.UTC;
              }
            },
            new JdbcReconRuns(rig.dataSource, dialect),
            new JdbcDifferenceStore(rig.dataSource, dialect),
            new JdbcSettlementStore(rig.dataSource, dialect),
            ReconciliationEvents.NONE);
  }

  /** The wallet's CSV, with the day's fee line a grouped-fee PSP appends after the money lines. */
  private static StatementParser walletWithFeeLine(long feeTotal) {
    WalletCsvParser csv = new WalletCsvParser();
    return new StatementParser() {
      @Override
      public StatementFormat format() {
        return StatementFormat.WALLET_CSV;
      }

      @Override
      public void parse(InputStream in, LineSink sink) throws Exception {
        long[] last = {0};
        csv.parse(
            in,
            line -> {
              last[0] = line.lineNo();
              sink.accept(line);
            });
        sink.accept(
            new StatementLine(
                last[0] + 1,
                "fee," + feeTotal,
                StatementLineKind.FEE,
                null,
                null,
                null,
                "fees-of-day",
                -feeTotal,
                feeTotal,
                RepairRig.CURRENCY,
                Instant.EPOCH));
      }
    };
  }

  private PayFlow refundPending(PayFlow paid) {
    CreateOutcome created =
        rig.refunds.create(
            new NewRefund(paid.id(), 400, "returned", "merchant-r", "k-" + paid.id()),
            new Lease("creator", rig.now.minusSeconds(1)),
            rig.now.minusSeconds(20));
    RefundOrder pending = ((CreateOutcome.Created) created).refund();
    rig.refunds
        .transition(
            new TransitionWrite(
                pending,
                RefundStatus.PROCESSING,
                null,
                rig.now.minusSeconds(1),
                null,
                new HistoryNote(TriggerSource.SYNC, null, "TEST", 0),
                rig.now.minusSeconds(10),
                "creator"))
        .orElseThrow();
    return paid;
  }

  private String csvLine(String kind, String orderNo, String trade, long amount) {
    return kind + "," + orderNo + "," + trade + "," + amount + ",EUR," + charged + "\n";
  }

  @Test
  void theStatementIsTheOnlyWitnessAndTheRepairsGoThroughTheEngines() {
    PayFlow late = rig.flow(CLOSED);
    PayFlow settled = rig.flow(PAYING, PAYED, BIZ_SUCCESS);
    PayFlow refunded = refundPending(rig.flow(PAYING, PAYED, BIZ_SUCCESS));
    String refundNo = rig.refunds.findByFlow(refunded.id(), 0, 5).get(0).refundNo();
    long amount = RepairRig.AMOUNT;
    String csv =
        "kind,order_no,trade_order_no,amount,currency,at\n"
            + csvLine("charge", late.tradeOrderNo(), late.tradeOrderNo(), amount)
            + csvLine("charge", settled.tradeOrderNo(), settled.tradeOrderNo(), amount)
            + csvLine("charge", refunded.tradeOrderNo(), refunded.tradeOrderNo(), amount)
            + csvLine("refund", refundNo, refunded.tradeOrderNo(), 400)
            + csvLine("charge", "T-other-env", "T-other-env", 990);
    long expectedFees = 3 * TERMS.expectedChargeFee(amount) + TERMS.expectedChargeFee(990);
    StatementImporter importer =
        new StatementImporter(
            ports.statements(), Map.of(StatementFormat.WALLET_CSV, walletWithFeeLine(99)));
    StatementFileRecord file =
        importer.importStatement(
            WALLET,
            day,
            Statement.unhashed(StatementFormat.WALLET_CSV, csv.getBytes(StandardCharsets.UTF_8)));
    assertThat(file.status()).isEqualTo(StatementFileRecord.Status.IMPORTED);

    Clock later = Clock.offset(rig.clock, Duration.ofDays(1));
    ReconConfig config =
        new ReconConfig(
            "node-a",
            Duration.ofMinutes(5),
            Duration.ofHours(2),
            Tolerances.none(),
            50,
            Duration.ofMinutes(1));
    ReconciliationJob.Result first = new ReconciliationJob(ports, config, later).run(WALLET, day);

    assertThat(first.outcome()).isEqualTo(ReconciliationJob.Outcome.DONE);
    assertThat(first.counts().lines()).isEqualTo(5);
    assertThat(kinds())
        .containsExactlyInAnyOrder(
            "LATE_CHARGE CONFIRMED",
            "UNKNOWN_STATEMENT_LINE NONE",
            "FEE_MISMATCH CONFIRMED",
            "REFUND_SETTLED_LOCAL_PENDING CONFIRMED");
    assertThat(expectedFees).isEqualTo(49);
    assertThat(rows("SELECT detail FROM recon_difference WHERE kind = 'FEE_MISMATCH'").get(0))
        .contains("99", "49");
    assertThat(ports.settlements().status(settled.tradeOrderNo()))
        .contains(SettlementStatus.SETTLED);

    RepairPass.Round round = new RepairPass(ports, rig.repairs, config, later).runUntilIdle(5);

    assertThat(round.autoRepaired()).isEqualTo(2);
    assertThat(round.tickets()).isEqualTo(2);
    assertThat(state(DifferenceClass.LATE_CHARGE)).isEqualTo("RESOLVED");
    assertThat(state(DifferenceClass.REFUND_SETTLED_LOCAL_PENDING)).isEqualTo("RESOLVED");
    assertThat(state(DifferenceClass.UNKNOWN_STATEMENT_LINE)).isEqualTo("NEEDS_PERSON");
    assertThat(state(DifferenceClass.FEE_MISMATCH)).isEqualTo("NEEDS_PERSON");
    RefundOrder lateRefund = rig.refunds.findByFlow(late.id(), 0, 5).get(0);
    assertThat(rig.refunds.findByFlow(late.id(), 0, 5)).hasSize(1);
    assertThat(
            rig.count(
                "SELECT count(*) FROM refund_order WHERE id = ? AND kind = ?",
                lateRefund.id(),
                RefundKind.LATE_CHARGE.name()))
        .isEqualTo(1);
    assertThat(rig.reread(late).status()).isEqualTo(CLOSED);
    assertThat(rig.refunds.findByFlow(refunded.id(), 0, 5).get(0).status())
        .isEqualTo(RefundStatus.SUCCESS);

    long differences = rig.count("SELECT count(*) FROM recon_difference");
    ReconciliationJob.Result second =
        new ReconciliationJob(ports, config, Clock.offset(later, Duration.ofMinutes(5)))
            .run(WALLET, day);
    RepairPass.Round again =
        new RepairPass(ports, rig.repairs, config, Clock.offset(later, Duration.ofMinutes(6)))
            .runUntilIdle(5);

    assertThat(second.counts().newDifferences()).isZero();
    assertThat(rig.count("SELECT count(*) FROM recon_difference")).isEqualTo(differences);
    assertThat(again.claimed()).isZero();
    assertThat(rig.refunds.findByFlow(late.id(), 0, 5)).hasSize(1);
    assertThat(
            rig.count(
                "SELECT count(*) FROM recon_difference_history h JOIN recon_difference d"
                    + " ON d.id = h.difference_id WHERE d.kind = 'LATE_CHARGE'"))
        .isGreaterThanOrEqualTo(2);
  }

  private java.util.List<String> kinds() {
    return rows("SELECT kind || ' ' || confidence FROM recon_difference");
  }

  private String state(DifferenceClass kind) {
    return rows("SELECT state FROM recon_difference WHERE kind = '" + kind.name() + "'").get(0);
  }

  private java.util.List<String> rows(String sql) {
    java.util.List<String> out = new java.util.ArrayList<>();
    try (var c = rig.dataSource.getConnection();
        var st = c.createStatement();
        var rs = st.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
    return out;
  }
}
