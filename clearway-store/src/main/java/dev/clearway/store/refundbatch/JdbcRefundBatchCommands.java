package dev.clearway.store.refundbatch;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.refundbatch.domain.BatchProgress;
import dev.clearway.core.refundbatch.domain.BatchState;
import dev.clearway.core.refundbatch.domain.ItemOutcome;
import dev.clearway.core.refundbatch.domain.RefundBatch;
import dev.clearway.core.refundbatch.port.RefundBatchCommands;
import dev.clearway.core.review.PersonNames;
import dev.clearway.store.PostgresDialect;
import dev.clearway.store.Sql;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.SqlErrors;
import dev.clearway.store.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;

/**
 * Maker/checker over refund_batch: each command locks the batch row, checks its state and the
 * people, moves it with a compare-and-set on its version and appends its audit line, in one
 * transaction; a refusal rolls back and writes nothing. People are stored and compared by their
 * normalised name; the database refuses an approver equal to the proposer as well.
 */
public final class JdbcRefundBatchCommands implements RefundBatchCommands {
  private final DataSource dataSource;
  private final SqlDialect dialect;
  private final BatchQueries queries;

  /** Commands on PostgreSQL. */
  public JdbcRefundBatchCommands(DataSource dataSource) {
    this(dataSource, new PostgresDialect());
  }

  public JdbcRefundBatchCommands(DataSource dataSource, SqlDialect dialect) {
    this.dataSource = dataSource;
    this.dialect = dialect;
    this.queries = new BatchQueries(dataSource);
  }

  @Override
  public Result propose(Proposal p, Instant now) {
    String proposer = PersonNames.normalise(p.proposer());
    return inTransaction(c -> BatchProposal.insert(c, dialect, p, proposer, now));
  }

  @Override
  public Result approve(long batchId, String approverName, Instant now) {
    String approver = PersonNames.normalise(approverName);
    return decide(batchId, approver, BatchState.APPROVED, "APPROVE", null, now);
  }

  @Override
  public Result reject(long batchId, String approverName, String note, Instant now) {
    String approver = PersonNames.normalise(approverName);
    return decide(batchId, approver, BatchState.REJECTED, "REJECT", note, now);
  }

  private Result decide(
      long batchId, String approver, BatchState to, String action, String note, Instant now) {
    return inTransaction(
        c -> {
          Optional<RefundBatch> found = lock(c, batchId);
          if (found.isEmpty()) {
            return new Result.NotFound();
          }
          RefundBatch b = found.get();
          if (b.state() != BatchState.PROPOSED) {
            return new Result.Refused("batch_not_proposed", "the batch is " + b.state());
          }
          if (PersonNames.same(b.proposer(), approver)) {
            return new Result.Refused(
                "same_person", "a batch must be decided by another person than its proposer");
          }
          RefundBatch moved =
              cas(
                  c,
                  b,
                  to,
                  ", approver_id = ?, decision_note = ?, decided_at = ?, due_at = ?",
                  approver,
                  note,
                  ts(now),
                  ts(now),
                  now);
          BatchRows.audit(c, batchId, approver, "APPROVER", action, note, now);
          return new Result.Done(moved);
        });
  }

  @Override
  public Result pause(long batchId, String actor, String role, Instant now) {
    return move(
        batchId,
        EnumSet.of(BatchState.APPROVED, BatchState.RUNNING),
        BatchState.PAUSED,
        PersonNames.normalise(actor),
        role,
        "PAUSE",
        now);
  }

  @Override
  public Result resume(long batchId, String actor, String role, Instant now) {
    return move(
        batchId,
        EnumSet.of(BatchState.PAUSED),
        BatchState.RUNNING,
        PersonNames.normalise(actor),
        role,
        "RESUME",
        now);
  }

  @Override
  public Result cancel(long batchId, String actor, String role, Instant now) {
    return move(
        batchId,
        EnumSet.of(BatchState.PROPOSED, BatchState.PAUSED),
        BatchState.CANCELLED,
        PersonNames.normalise(actor),
        role,
        "CANCEL",
        now);
  }

  /**
   * A command without a second person: from one of {@code from} to {@code to}, the runner's lease
   * dropped (its next write is refused) and the batch due now.
   */
  private Result move(
      long batchId,
      Set<BatchState> from,
      BatchState to,
      String actor,
      String role,
      String action,
      Instant now) {
    return inTransaction(
        c -> {
          Optional<RefundBatch> found = lock(c, batchId);
          if (found.isEmpty()) {
            return new Result.NotFound();
          }
          RefundBatch b = found.get();
          if (!from.contains(b.state())) {
            return new Result.Refused(
                "batch_state", "the batch is " + b.state() + ", this needs one of " + from);
          }
          String finished = to.isTerminal() ? ", finished_at = ?" : ", finished_at = finished_at";
          RefundBatch moved =
              to.isTerminal()
                  ? cas(c, b, to, ", due_at = ?" + finished, ts(now), ts(now), now)
                  : cas(c, b, to, ", due_at = ?" + finished, ts(now), now);
          BatchRows.audit(c, batchId, actor, role, action, b.state() + " -> " + to, now);
          return new Result.Done(moved);
        });
  }

  /** Moves the locked batch by CAS on its version; the extra SET clause takes {@code params}. */
  private static RefundBatch cas(
      Connection c, RefundBatch from, BatchState to, String set, Object... paramsThenNow)
      throws SQLException {
    Instant now = (Instant) paramsThenNow[paramsThenNow.length - 1];
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE refund_batch SET state = ?, version = version + 1, lease_owner = NULL,"
                + " updated_at = ?"
                + set
                + " WHERE id = ? AND version = ?")) {
      int i = 1;
      ps.setString(i++, to.name());
      ps.setObject(i++, ts(now));
      for (int k = 0; k < paramsThenNow.length - 1; k++) {
        ps.setObject(i++, paramsThenNow[k]);
      }
      ps.setLong(i++, from.id());
      ps.setLong(i, from.version());
      if (ps.executeUpdate() != 1) {
        throw new SQLException("refund batch " + from.id() + " moved under its row lock");
      }
    }
    // The row lock taken before the update keeps the row as written until the commit.
    return lock(c, from.id()).orElseThrow();
  }

  private static Optional<RefundBatch> lock(Connection c, long batchId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT * FROM refund_batch WHERE id = ? FOR UPDATE")) {
      ps.setLong(1, batchId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(BatchRows.batch(rs)) : Optional.empty();
      }
    }
  }

  /**
   * Runs {@code work} in one transaction, committed only when done. The database's own refusals (a
   * second open batch of the scene, an approver equal to the proposer) become stable codes.
   */
  private Result inTransaction(Sql.Work<Result> work) {
    try {
      return Sql.inTransaction(dataSource, work, r -> r instanceof Result.Done);
    } catch (SQLException e) {
      String message = String.valueOf(e.getMessage());
      if (SqlErrors.isUniqueViolation(e) && message.contains("uk_refund_batch_open")) {
        return new Result.Refused(
            "batch_already_open", "the scene already has a batch that has not ended");
      }
      if (SqlErrors.isCheckViolation(e) && message.contains("two_people")) {
        return new Result.Refused(
            "same_person", "a batch must be decided by another person than its proposer");
      }
      throw new StoreException("refund batch command", e);
    }
  }

  @Override
  public Optional<RefundBatch> find(long batchId) {
    return queries.find(batchId);
  }

  @Override
  public List<RefundBatch> list(BatchState state, long beforeId, int limit) {
    return queries.list(state, beforeId, limit);
  }

  @Override
  public BatchProgress progress(long batchId) {
    return queries.progress(batchId);
  }

  @Override
  public List<ReportLine> items(long batchId, ItemOutcome outcome, long afterId, int limit) {
    return queries.items(batchId, outcome, afterId, limit);
  }

  @Override
  public List<AuditLine> audit(long batchId) {
    return queries.audit(batchId);
  }
}
