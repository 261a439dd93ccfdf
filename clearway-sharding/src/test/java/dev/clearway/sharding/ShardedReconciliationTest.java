package dev.clearway.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.reconciliation.decision.Tolerances;
import dev.clearway.core.reconciliation.domain.AccountTerms;
import dev.clearway.core.reconciliation.domain.SettlementStatus;
import dev.clearway.core.reconciliation.engine.EngineRepairs;
import dev.clearway.core.reconciliation.engine.ReconConfig;
import dev.clearway.core.reconciliation.engine.ReconPorts;
import dev.clearway.core.reconciliation.engine.ReconciliationJob;
import dev.clearway.core.reconciliation.engine.RepairPass;
import dev.clearway.core.reconciliation.engine.RepairTargets;
import dev.clearway.core.reconciliation.port.AccountTermsSource;
import dev.clearway.core.reconciliation.port.ReconciliationEvents;
import dev.clearway.core.refund.domain.NewRefund;
import dev.clearway.core.refund.domain.RefundKind;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refund.port.RefundStore.CreateOutcome;
import dev.clearway.core.runtime.LeaseTokens;
import dev.clearway.core.statement.Statement;
import dev.clearway.core.statement.StatementFileRecord;
import dev.clearway.core.statement.StatementFormat;
import dev.clearway.core.statement.StatementImporter;
import dev.clearway.store.Database;
import dev.clearway.store.FlowReads;
import dev.clearway.store.JdbcFlowStore;
import dev.clearway.store.reconciliation.JdbcReconciliationStores;
import dev.clearway.store.refund.JdbcRefundStore;
import dev.clearway.store.statement.StatementStores;
import dev.clearway.store.statement.WalletCsvParser;
import dev.clearway.store.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Reconciliation on the sharded URL: payments on all four shards, the wallet's statement of their
 * day imported on the first database, reconciled by the same job as on one database (the local side
 * read table by table by key, the day's movements page by page over every shard), then repaired
 * through the engines' stores, each repair on its payment's shard.
 */
@Tag(ShardedTestDatabase.SHARDING)
class ShardedReconciliationTest {
  private static final String WALLET = "wallet";
  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
  private static final LocalDate DAY = LocalDate.of(2026, 12, 1);
  private static final long AMOUNT = 1_250;
  private static final AccountTerms TERMS =
      new AccountTerms(WALLET, Duration.ofHours(6), 0, 0, "EUR");

  /** A trade order number of ours in form, its flow id carrying shard 37 of a 4-shard layout. */
  private static final String PAST_THE_LAYOUT =
      OrderNumbers.derive(1, (37L << 48) | 3).tradeOrderNo();

  private static final List<String> SINGLE =
      List.of(
          "payment_settlement_history",
          "payment_settlement",
          "recon_difference_history",
          "recon_difference",
          "recon_run",
          "statement_line",
          "statement_file");

  private final ShardedTestDatabase db = ShardedTestDatabase.get();
  private Database database;
  private JdbcFlowStore flows;
  private JdbcRefundStore refunds;
  private final Clock later = Clock.fixed(T0.plus(Duration.ofDays(1)), ZoneOffset.UTC);
  private final ReconConfig config =
      new ReconConfig(
          "node-a",
          Duration.ofMinutes(5),
          Duration.ofHours(2),
          Tolerances.none(),
          50,
          Duration.ofMinutes(1));
  private ReconPorts ports;

  @BeforeEach
  void clean() {
    db.truncate(ShardedTestDatabase.REFUND_AND_FLOW_TABLES);
    db.truncateSingle(SINGLE);
    use(db.database());
  }

  /** The stores and ports over {@code on}, sharded or one database. */
  private void use(Database on) {
    database = on;
    flows = new JdbcFlowStore(database.dataSource(), database.dialect());
    refunds = new JdbcRefundStore(database.dataSource(), database.dialect());
    JdbcReconciliationStores stores =
        JdbcReconciliationStores.create(database.dataSource(), database.dialect(), WALLET);
    ports =
        new ReconPorts(
            StatementStores.create(database.dataSource(), database.dialect(), later),
            stores.statements(),
            stores.locals(),
            stores.locals(),
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
            stores.runs(),
            stores.differences(),
            stores.settlements(),
            ReconciliationEvents.NONE);
  }

  private PayFlow paid(int shard, String bizKey) {
    return SucceededFlows.create(flows, ShardedGoals.on(shard, bizKey), AMOUNT, T0);
  }

  /** A flow of {@code shard} moved along {@code path}, every write at T0. */
  private PayFlow flow(int shard, String bizKey, FlowStatus... path) {
    NewPayment payment =
        new NewPayment(ShardedGoals.on(shard, bizKey), AMOUNT, "EUR", T0.plusSeconds(60));
    return FlowPaths.along(flows, payment, T0, path);
  }

  private RefundOrder refundProcessing(PayFlow paid) {
    CreateOutcome created =
        refunds.create(
            new NewRefund(paid.id(), 400, "returned", "m1", "k-" + paid.id()),
            new Lease("refunder", T0.plusSeconds(30)),
            T0);
    return RefundMoves.move(
        refunds, ((CreateOutcome.Created) created).refund(), RefundStatus.PROCESSING, T0);
  }

  private static String line(String kind, String orderNo, String trade, long amount) {
    return kind + "," + orderNo + "," + trade + "," + amount + ",EUR," + T0 + "\n";
  }

  /** The payments of the day and the refund its statement settles. */
  private record Planted(
      List<PayFlow> settled,
      PayFlow late,
      PayFlow offAmount,
      PayFlow unseen,
      PayFlow unseenPayed,
      PayFlow refunded,
      RefundOrder pending) {

    /** What each payment stands for in the day, by trade order number. */
    Map<String, String> roles() {
      Map<String, String> roles = new HashMap<>();
      for (int i = 0; i < settled.size(); i++) {
        roles.put(settled.get(i).tradeOrderNo(), "settled-" + i);
      }
      roles.put(late.tradeOrderNo(), "late");
      roles.put(offAmount.tradeOrderNo(), "amount");
      roles.put(unseen.tradeOrderNo(), "unseen");
      roles.put(unseenPayed.tradeOrderNo(), "unseen-payed");
      roles.put(refunded.tradeOrderNo(), "refunded");
      return roles;
    }
  }

  /**
   * Payments on every shard and the wallet's statement of their day, imported: settled ones, a late
   * charge, an amount that differs, a granted and a paid flow the statement never shows, a refund
   * the PSP settled that is still processing here, a line no payment knows and a line whose number
   * is shaped like ours but names a shard past the layout.
   */
  private Planted plant() {
    List<PayFlow> settled = new ArrayList<>();
    for (int shard = 0; shard < 4; shard++) {
      settled.add(paid(shard, "settled-" + shard));
    }
    PayFlow late = flow(0, "late", FlowStatus.CLOSED);
    PayFlow offAmount = paid(1, "amount");
    PayFlow unseen = paid(2, "unseen");
    PayFlow unseenPayed = flow(3, "unseen-payed", FlowStatus.PAYING, FlowStatus.PAYED);
    PayFlow refunded = paid(3, "refunded");
    RefundOrder pending = refundProcessing(refunded);
    StringBuilder csv = new StringBuilder("kind,order_no,trade_order_no,amount,currency,at\n");
    for (PayFlow f : settled) {
      csv.append(line("charge", f.tradeOrderNo(), f.tradeOrderNo(), AMOUNT));
    }
    csv.append(line("charge", late.tradeOrderNo(), late.tradeOrderNo(), AMOUNT))
        .append(line("charge", offAmount.tradeOrderNo(), offAmount.tradeOrderNo(), AMOUNT + 100))
        .append(line("charge", refunded.tradeOrderNo(), refunded.tradeOrderNo(), AMOUNT))
        .append(line("refund", pending.refundNo(), refunded.tradeOrderNo(), 400))
        .append(line("charge", "T-other-env", "T-other-env", 990))
        .append(line("charge", PAST_THE_LAYOUT, PAST_THE_LAYOUT, 990));
    StatementFileRecord file =
        new StatementImporter(
                ports.statements(), Map.of(StatementFormat.WALLET_CSV, new WalletCsvParser()))
            .importStatement(
                WALLET,
                DAY,
                Statement.unhashed(
                    StatementFormat.WALLET_CSV, csv.toString().getBytes(StandardCharsets.UTF_8)));
    assertThat(file.status()).isEqualTo(StatementFileRecord.Status.IMPORTED);
    return new Planted(settled, late, offAmount, unseen, unseenPayed, refunded, pending);
  }

  /** The day's differences, each as its kind and the role of its payment. */
  private List<String> differencesByRole(Planted day) {
    Map<String, String> roles = day.roles();
    return rows("SELECT concat(kind, ' ', trade_order_no) FROM recon_difference").stream()
        .map(
            d -> {
              String trade = d.substring(d.indexOf(' ') + 1);
              return d.substring(0, d.indexOf(' ')) + " " + roles.getOrDefault(trade, trade);
            })
        .toList();
  }

  @Test
  void theSameDayOnOneDatabaseFindsTheSameDifferences() {
    Planted sharded = plant();
    new ReconciliationJob(ports, config, later).run(WALLET, DAY);
    List<String> found = differencesByRole(sharded);

    TestDatabase plain = TestDatabase.get();
    assertThat(plain.dialect().sharded()).isFalse();
    List<String> tables = new ArrayList<>(SINGLE);
    tables.addAll(ShardedTestDatabase.REFUND_AND_FLOW_TABLES);
    plain.truncate(tables.toArray(String[]::new));
    use(plain.database());
    Planted one = plant();
    new ReconciliationJob(ports, config, later).run(WALLET, DAY);

    assertThat(found).hasSize(7).containsExactlyInAnyOrderElementsOf(differencesByRole(one));
  }

  @Test
  void aDayOverEveryShardFindsThePlantedDifferencesAndRepairsThemOnTheirShards() {
    Planted day = plant();
    List<PayFlow> settled = day.settled();
    PayFlow late = day.late();
    PayFlow offAmount = day.offAmount();
    PayFlow unseen = day.unseen();
    PayFlow unseenPayed = day.unseenPayed();
    PayFlow refunded = day.refunded();
    RefundOrder pending = day.pending();

    ReconciliationJob.Result[] ran = new ReconciliationJob.Result[1];
    List<SqlLog.Routed> log =
        SqlLog.capture(() -> ran[0] = new ReconciliationJob(ports, config, later).run(WALLET, DAY));
    ReconciliationJob.Result run = ran[0];
    System.out.printf(
        "sharded reconciliation of %d lines: %d logical statements, %d physical%n",
        run.counts().lines(), log.size(), log.stream().mapToInt(r -> r.actual().size()).sum());
    for (SqlLog.Routed statement : log) {
      // A join is one of single tables, run on the first database alone; a statement on the
      // payment tables reads one table (the flow's two binding tables count as one).
      if (statement.logic().replace(FlowReads.SHARDED_ROWS, "pay_flow").contains(" JOIN ")) {
        assertThat(statement.actual()).as(statement.logic()).hasSize(1);
        assertThat(statement.actual().get(0)).as(statement.logic()).startsWith("ds_0 ");
      }
    }

    assertThat(run.outcome()).isEqualTo(ReconciliationJob.Outcome.DONE);
    assertThat(run.counts().lines()).isEqualTo(10);
    assertThat(rows("SELECT concat(kind, ' ', trade_order_no) FROM recon_difference"))
        .containsExactlyInAnyOrder(
            "LATE_CHARGE " + late.tradeOrderNo(),
            "AMOUNT_MISMATCH " + offAmount.tradeOrderNo(),
            "BIZ_SUCCESS_WITHOUT_CHARGE " + unseen.tradeOrderNo(),
            "MISSING_FROM_STATEMENT " + unseenPayed.tradeOrderNo(),
            "REFUND_SETTLED_LOCAL_PENDING " + refunded.tradeOrderNo(),
            "UNKNOWN_STATEMENT_LINE T-other-env",
            "UNKNOWN_STATEMENT_LINE " + PAST_THE_LAYOUT);
    for (PayFlow f : settled) {
      assertThat(ports.settlements().status(f.tradeOrderNo())).contains(SettlementStatus.SETTLED);
    }
    assertThat(ports.settlements().status(offAmount.tradeOrderNo()))
        .contains(SettlementStatus.MISMATCH);
    assertThat(ports.settlements().status(unseen.tradeOrderNo())).isEmpty();

    RepairPass.Round round = new RepairPass(ports, repairs(), config, later).runUntilIdle(5);

    assertThat(round.autoRepaired()).isEqualTo(2);
    assertThat(refunds.find(pending.id()).orElseThrow().status()).isEqualTo(RefundStatus.SUCCESS);
    List<RefundOrder> lateRefunds = refunds.findByFlow(late.id(), 0, 5);
    assertThat(lateRefunds).hasSize(1);
    assertThat(
            rows(
                "SELECT kind FROM refund_order WHERE id = "
                    + lateRefunds.get(0).id()
                    + " AND flow_id = "
                    + late.id()))
        .containsExactly(RefundKind.LATE_CHARGE.name());
    assertThat(lateRefunds.get(0).id() >>> 48).as("on the late flow's shard").isZero();
    assertThat(flows.find(late.id()).orElseThrow().status()).isEqualTo(FlowStatus.CLOSED);

    long differences = count("SELECT count(*) FROM recon_difference");
    Clock again = Clock.offset(later, Duration.ofMinutes(5));
    ReconciliationJob.Result second = new ReconciliationJob(ports, config, again).run(WALLET, DAY);
    assertThat(second.counts().newDifferences()).isZero();
    assertThat(count("SELECT count(*) FROM recon_difference")).isEqualTo(differences);
    assertThat(refunds.findByFlow(late.id(), 0, 5)).hasSize(1);
  }

  private EngineRepairs repairs() {
    LeaseTokens leases = new LeaseTokens("recon-test", later, EngineConfig.compressed());
    return new EngineRepairs(
        new RepairTargets(
            flows,
            null,
            null,
            refunds,
            request -> refunds.create(request, leases.next(), later.instant()),
            (flowId, at) -> {},
            leases));
  }

  private long count(String sql) {
    return Long.parseLong(rows(sql).get(0));
  }

  private List<String> rows(String sql) {
    List<String> out = new ArrayList<>();
    try (Connection c = database.dataSource().getConnection();
        PreparedStatement ps = c.prepareStatement(sql);
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    } catch (SQLException e) {
      throw new IllegalStateException(sql, e);
    }
    return out;
  }
}
