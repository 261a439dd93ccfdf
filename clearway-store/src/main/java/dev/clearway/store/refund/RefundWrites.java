package dev.clearway.store.refund;

import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.port.RefundStore.TransitionWrite;
import dev.clearway.store.Sql;
import dev.clearway.store.SqlDialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The refund store's writes that PostgreSQL does in one statement ({@code RETURNING},
 * data-modifying CTEs) and the MySQL family in several statements of one transaction.
 */
interface RefundWrites {

  /** The writes of {@code dialect}'s database. */
  static RefundWrites of(SqlDialect dialect) {
    return dialect.writesReturnRows()
        ? new PostgresRefundWrites(dialect)
        : new MysqlRefundStatements(dialect.sharded());
  }

  /**
   * Runs {@code insert} (a single-row {@code INSERT INTO refund_order ... VALUES}, without
   * RETURNING, bound by {@code binder}) on {@code c} and returns the row it wrote.
   */
  RefundOrder insert(Connection c, String insert, Sql.Binder binder) throws SQLException;

  /**
   * The CAS transition {@code w} fenced by (status, version) and the writer's lease, with its
   * history row and, when {@code event} is not null, its outbox event, all or nothing; empty when
   * the fence refused it (nothing written).
   */
  Optional<RefundOrder> transition(
      DataSource dataSource, TransitionWrite w, String errorCode, String event) throws SQLException;
}
