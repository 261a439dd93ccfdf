package dev.clearway.lab.recon;

import dev.clearway.core.channel.engine.AttemptRecorder;
import dev.clearway.core.reconciliation.engine.EngineRepairs;
import dev.clearway.core.reconciliation.engine.ReconConfig;
import dev.clearway.core.reconciliation.engine.ReconPorts;
import dev.clearway.core.reconciliation.engine.ReconciliationJob;
import dev.clearway.core.reconciliation.engine.RepairPass;
import dev.clearway.core.reconciliation.engine.RepairTargets;
import dev.clearway.core.reconciliation.port.ReconciliationEvents;
import dev.clearway.core.runtime.LeaseTokens;
import dev.clearway.store.Sql;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.reconciliation.JdbcReconciliationStores;
import dev.clearway.store.refund.JdbcRefundStore;
import dev.clearway.store.statement.StatementStores;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The production reconciliation over the run's database: the job per account-day and the repair
 * pass, on the JDBC stores, with the engines' own transitions as the repairs, on a clock {@code
 * ahead} of the real one so that every settlement window has passed.
 */
final class EngineReconSteps implements ReconSteps {

  private final ReconciliationJob job;
  private final RepairPass repairs;
  private final Sql sql;
  private final String settlements;
  private final PrintStream err;

  EngineReconSteps(
      DataSource dataSource, SqlDialect dialect, ReconRig rig, Clock clock, PrintStream err) {
    JdbcReconciliationStores stores =
        JdbcReconciliationStores.create(dataSource, dialect, "wallet");
    // A sharding driver knows tables, not views; the MySQL family settles every payment by its
    // row (no agreed line stands for one there), so the row is read there.
    this.settlements = dialect.sharded() ? "payment_settlement" : "payment_settlement_in_effect";
    ReconPorts ports =
        new ReconPorts(
            StatementStores.create(dataSource, dialect, clock),
            stores.statements(),
            stores.locals(),
            stores.locals(),
            new SimBusinessFacts(rig.business()),
            new ChaosTerms(rig.card().account(), rig.wallet().account()),
            stores.runs(),
            stores.differences(),
            stores.settlements(),
            ReconciliationEvents.NONE);
    ReconConfig config =
        new ReconConfig(
            "recon-chaos",
            Duration.ofSeconds(30),
            Duration.ofHours(2),
            dev.clearway.core.reconciliation.decision.Tolerances.none(),
            100,
            Duration.ofMillis(200));
    this.job = new ReconciliationJob(ports, config, clock);
    this.repairs =
        new RepairPass(
            ports,
            new EngineRepairs(
                new RepairTargets(
                    rig.flows(),
                    rig.ctx().stores().attempts(),
                    new AttemptRecorder(rig.ctx()),
                    new JdbcRefundStore(dataSource, dialect),
                    request -> rig.refunds().service().request(request),
                    rig.engine().wakeups(),
                    new LeaseTokens("recon-chaos-repairs", clock, rig.config()))),
            config,
            clock);
    this.sql = new Sql(dataSource);
    this.err = err;
  }

  @Override
  public void reconcile(ReconStatements.Imported file) {
    ReconciliationJob.Result result = job.run(file.account(), file.day());
    if (result.outcome() != ReconciliationJob.Outcome.DONE) {
      err.println(
          "reconcile chaos: run of "
              + file.account()
              + " "
              + file.day()
              + " "
              + result.outcome()
              + ": "
              + result.detail());
    }
  }

  @Override
  public int repair() {
    return repairs.runOnce().claimed();
  }

  @Override
  public long unresolved() {
    return sql.query(
            "SELECT count(*) FROM recon_difference WHERE state IN ('OPEN', 'AUTO_REPAIRING')",
            ps -> {},
            rs -> rs.getLong(1))
        .get(0);
  }

  @Override
  public List<ReconTally.FoundDifference> differences() {
    return sql.query(
        """
        SELECT id, kind, trade_order_no, refund_order_no, state, repair_kind, account_ref,
          statement_day, statement_amount, local_amount, detail
        FROM recon_difference ORDER BY id
        """,
        ps -> {},
        rs ->
            new ReconTally.FoundDifference(
                rs.getLong(1),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                rs.getString(5),
                rs.getString(6),
                rs.getString(7),
                rs.getString(8),
                (Long) rs.getObject(9),
                (Long) rs.getObject(10),
                rs.getString(11)));
  }

  @Override
  public Map<String, String> settlement(Set<String> trades) {
    Map<String, String> out = new HashMap<>();
    sql.query(
        "SELECT trade_order_no, status FROM " + settlements,
        ps -> {},
        rs -> {
          if (trades.contains(rs.getString(1))) {
            out.put(rs.getString(1), rs.getString(2));
          }
          return null;
        });
    return out;
  }
}
