package dev.clearway.store.reconciliation;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.DifferenceClass;
import dev.clearway.core.reconciliation.port.DifferenceStore.Found;
import dev.clearway.store.Sql;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;

/** Binds the columns of a new {@code recon_difference} row from what a run found. */
final class DifferenceInsert {
  private DifferenceInsert() {}

  static void bind(PreparedStatement ps, String account, String identity, Found found, Instant now)
      throws SQLException {
    Difference d = found.difference();
    ps.setString(1, account);
    ps.setObject(2, found.statementDay());
    ps.setString(3, d.kind().name());
    ps.setString(4, identity);
    ps.setString(5, d.tradeOrderNo());
    ps.setString(6, refundOrderNo(d));
    ps.setObject(7, d.local() == null ? null : d.local().flowId());
    ps.setObject(8, found.statementFileId());
    ps.setObject(9, found.statementLineNo());
    ps.setObject(10, d.statement() == null ? null : d.statement().amountMinor());
    ps.setObject(11, d.local() == null ? null : localAmount(d));
    ps.setString(12, d.statement() != null ? d.statement().currency() : d.local().currency());
    ps.setString(13, found.confidence().name());
    ps.setString(14, d.kind().repairKind().name());
    ps.setString(15, Sql.truncate(d.detail(), 500));
    ps.setString(16, Sql.truncate(d.kind().mustConfirm(), 300));
    ps.setString(17, DifferenceEvidence.json(found));
    ps.setObject(18, ts(d.actionableAt()));
    ps.setLong(19, found.runId());
    ps.setLong(20, found.runId());
    ps.setObject(21, ts(now));
    ps.setObject(22, ts(now));
  }

  /** A refund's number when the difference is about a refund (or the line is one). */
  private static String refundOrderNo(Difference d) {
    boolean aboutRefund =
        d.statement() != null && d.statement().refundOrderNo() != null
            || d.local() != null && d.local().refund() != null
            || d.kind() == DifferenceClass.REFUND_NOT_AT_PSP
            || d.kind() == DifferenceClass.REFUND_SETTLED_LOCAL_PENDING;
    return aboutRefund ? DifferenceIdentity.refundOrderNo(d) : null;
  }

  /** The local amount the line is held against: the refund's when the view has one. */
  private static long localAmount(Difference d) {
    return d.local().refund() != null ? d.local().refund().amountMinor() : d.local().amountMinor();
  }
}
