package dev.clearway.store.refund;

import static dev.clearway.store.Sql.ts;
import static dev.clearway.store.refund.RefundRows.COLUMNS;

import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.port.RefundStore.TransitionWrite;
import dev.clearway.store.Sql;
import dev.clearway.store.SqlDialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;

/** PostgreSQL: the insert returns its row, the transition is one statement of the dialect's. */
final class PostgresRefundWrites implements RefundWrites {
  private final SqlDialect dialect;

  PostgresRefundWrites(SqlDialect dialect) {
    this.dialect = dialect;
  }

  @Override
  public RefundOrder insert(Connection c, String insert, Sql.Binder binder) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(insert.stripTrailing() + "\nRETURNING " + COLUMNS)) {
      binder.bind(ps);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return RefundRows.map(rs);
      }
    }
  }

  @Override
  public Optional<RefundOrder> transition(
      DataSource dataSource, TransitionWrite w, String errorCode, String event)
      throws SQLException {
    RefundOrder from = w.from();
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(dialect.refundTransitionSql())) {
      int i = 1;
      ps.setString(i++, w.to().name());
      ps.setObject(i++, ts(w.nextRetryTime()));
      ps.setString(i++, w.leaseToken());
      ps.setString(i++, errorCode);
      ps.setString(i++, w.note().requestId());
      ps.setObject(i++, ts(w.now()));
      ps.setLong(i++, from.id());
      ps.setString(i++, from.status().name());
      ps.setLong(i++, from.version());
      ps.setString(i++, w.holder());
      ps.setString(i++, from.status().name());
      ps.setString(i++, w.note().trigger().name());
      ps.setString(i++, w.note().requestId());
      ps.setString(i++, w.note().resultClass());
      ps.setString(i++, errorCode);
      ps.setLong(i++, w.note().elapsedMillis());
      ps.setObject(i++, ts(w.now()));
      // Its domain event in the same statement: money went back, or definitely did not.
      ps.setString(i++, event);
      ps.setObject(i++, ts(w.now()));
      ps.setString(i, event);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(RefundRows.map(rs)) : Optional.empty();
      }
    }
  }
}
