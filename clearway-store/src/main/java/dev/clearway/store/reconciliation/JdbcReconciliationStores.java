package dev.clearway.store.reconciliation;

import dev.clearway.store.SqlDialect;
import javax.sql.DataSource;

/**
 * The reconciliation stores over one database or a sharded layout: the local side (lookups and the
 * account-day, {@link LocalSide#of}), the statements in force, the differences, the runs and the
 * settlement status.
 *
 * @param walletAccount the account of flows paid through the plain wallet (no channel attempt)
 */
public record JdbcReconciliationStores(
    LocalSide locals,
    JdbcStatementFacts statements,
    JdbcDifferenceStore differences,
    JdbcReconRuns runs,
    JdbcSettlementStore settlements) {

  public static JdbcReconciliationStores create(
      DataSource dataSource, SqlDialect dialect, String walletAccount) {
    return new JdbcReconciliationStores(
        LocalSide.of(dataSource, dialect, walletAccount),
        new JdbcStatementFacts(dataSource),
        new JdbcDifferenceStore(dataSource, dialect),
        new JdbcReconRuns(dataSource, dialect),
        new JdbcSettlementStore(dataSource, dialect));
  }
}
