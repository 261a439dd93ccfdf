package dev.clearway.store.reconciliation;

import dev.clearway.store.SqlDialect;
import javax.sql.DataSource;

/**
 * The reconciliation stores over one database: the local side (lookups and the account-day), the
 * statements in force, the differences, the runs and the settlement status.
 *
 * @param walletAccount the account of flows paid through the plain wallet (no channel attempt)
 */
public record JdbcReconciliationStores(
    JdbcLocalFacts locals,
    JdbcStatementFacts statements,
    JdbcDifferenceStore differences,
    JdbcReconRuns runs,
    JdbcSettlementStore settlements) {

  public static JdbcReconciliationStores create(
      DataSource dataSource, SqlDialect dialect, String walletAccount) {
    return new JdbcReconciliationStores(
        new JdbcLocalFacts(dataSource, dialect, walletAccount),
        new JdbcStatementFacts(dataSource),
        new JdbcDifferenceStore(dataSource, dialect),
        new JdbcReconRuns(dataSource, dialect),
        new JdbcSettlementStore(dataSource, dialect));
  }
}
