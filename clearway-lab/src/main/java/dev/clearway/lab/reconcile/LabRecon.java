package dev.clearway.lab.reconcile;

import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.port.WakeupScheduler;
import dev.clearway.core.reconciliation.engine.EngineRepairs;
import dev.clearway.core.reconciliation.engine.ReconConfig;
import dev.clearway.core.reconciliation.engine.ReconPorts;
import dev.clearway.core.reconciliation.engine.ReconciliationJob;
import dev.clearway.core.reconciliation.engine.RepairPass;
import dev.clearway.core.reconciliation.engine.RepairTargets;
import dev.clearway.core.reconciliation.port.AccountTermsSource;
import dev.clearway.core.reconciliation.port.ReconciliationEvents;
import dev.clearway.core.runtime.LeaseTokens;
import dev.clearway.store.Database;
import dev.clearway.store.MysqlDialect;
import dev.clearway.store.Sql;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.reconciliation.JdbcAgreeingLines;
import dev.clearway.store.reconciliation.JdbcDifferenceStore;
import dev.clearway.store.reconciliation.JdbcReconRuns;
import dev.clearway.store.reconciliation.JdbcSettlementStore;
import dev.clearway.store.reconciliation.JdbcStatementFacts;
import dev.clearway.store.reconciliation.LocalSide;
import dev.clearway.store.refund.JdbcRefundStore;
import dev.clearway.store.statement.StatementStores;
import java.time.Clock;
import java.time.LocalDate;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;

/**
 * Reconciliation on the command line, over one database and without the service: the job and the
 * repair pass on the JDBC stores, no business system to ask (a PAYED flow is not attributed from
 * here), and the repairs through the stores' own transitions. No engine runs in this process: a
 * flow a repair moves is taken on by the service's scanner, and a refund it requests waits, PENDING
 * under its creation lease, for the refund scanner; a charge to settle on a channel attempt needs
 * the channel layer and becomes a person's ticket.
 */
public final class LabRecon {
  private final ReconPorts ports;
  private final ReconConfig config;
  private final Clock clock;
  private final DataSource dataSource;
  private final Database db;

  /** Null on the MySQL family: the matcher sees every line (the engine's plain path). */
  private final JdbcAgreeingLines agreeing;

  private final String walletAccount;

  public LabRecon(Database db, AccountTermsSource terms, String walletAccount, Clock clock) {
    this.db = db;
    this.dataSource = db.dataSource();
    this.clock = clock;
    this.walletAccount = walletAccount;
    SqlDialect dialect = db.dialect();
    LocalSide locals = LocalSide.of(dataSource, dialect, walletAccount);
    this.ports =
        new ReconPorts(
            StatementStores.create(dataSource, dialect, clock),
            new JdbcStatementFacts(dataSource),
            locals,
            locals,
            goal -> java.util.Optional.empty(),
            terms,
            new JdbcReconRuns(dataSource, dialect),
            new JdbcDifferenceStore(dataSource, dialect),
            new JdbcSettlementStore(dataSource, dialect),
            ReconciliationEvents.NONE);
    this.config = ReconConfig.defaults("clearway-cli");
    this.agreeing =
        dialect instanceof MysqlDialect
            ? null
            : new JdbcAgreeingLines(dataSource, dialect, walletAccount);
  }

  public ReconciliationJob job() {
    return new ReconciliationJob(ports, config, clock, agreeing);
  }

  /** The job's ports, to wrap (the bench times them). */
  public ReconPorts ports() {
    return ports;
  }

  public ReconConfig config() {
    return config;
  }

  /** The set-based agreeing lines, telling {@code steps} how long each step of a claim took. */
  public JdbcAgreeingLines agreeing(JdbcAgreeingLines.Steps steps) {
    return new JdbcAgreeingLines(dataSource, db.dialect(), walletAccount, steps);
  }

  public RepairPass repairPass() {
    JdbcRefundStore refunds = new JdbcRefundStore(dataSource, db.dialect());
    LeaseTokens leases = new LeaseTokens("clearway-cli-repairs", clock, EngineConfig.production());
    RepairTargets targets =
        new RepairTargets(
            db.flowStore(),
            null,
            null,
            refunds,
            request -> refunds.create(request, leases.next(), clock.instant()),
            WakeupScheduler.NONE,
            leases);
    return new RepairPass(ports, new EngineRepairs(targets), config, clock);
  }

  /** The differences of the account-day by class, as recorded (whatever their state). */
  public Map<String, Long> differencesByClass(String account, LocalDate day) {
    Map<String, Long> byClass = new TreeMap<>();
    new Sql(dataSource)
        .query(
            "SELECT kind, count(*) FROM recon_difference"
                + " WHERE account_ref = ? AND statement_day = ? GROUP BY kind",
            ps -> {
              ps.setString(1, account);
              ps.setObject(2, day);
            },
            rs -> byClass.put(rs.getString(1), rs.getLong(2)));
    return byClass;
  }

  /** The differences of the account-day by state. */
  public Map<String, Long> differencesByState(String account, LocalDate day) {
    Map<String, Long> byState = new TreeMap<>();
    new Sql(dataSource)
        .query(
            "SELECT state, count(*) FROM recon_difference"
                + " WHERE account_ref = ? AND statement_day = ? GROUP BY state",
            ps -> {
              ps.setString(1, account);
              ps.setObject(2, day);
            },
            rs -> byState.put(rs.getString(1), rs.getLong(2)));
    return byState;
  }
}
