package dev.clearway.store;

import static dev.clearway.store.PostgresDialect.FLOW_COLUMNS;
import static dev.clearway.store.Sql.ts;

import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.review.CommandKind;
import dev.clearway.core.review.PersonNames;
import dev.clearway.core.review.TargetKind;
import dev.clearway.store.review.ManualCommand;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Manual commands with maker/checker. A proposal pins the flow's status and version; the approval,
 * the flow's CAS transition with its history row, the command's new state and the audit entry
 * commit in one transaction, so a command is applied exactly when its effect is. Through a sharding
 * driver (the command on the first database, the flow on its shard) the effect commits first and
 * the decision after; the effect is found again by the command's id, never applied twice. People
 * are stored and compared by their normalised name ({@link PersonNames}), so the database's
 * maker/checker check compares people, not spellings.
 */
public final class JdbcReviewStore {

  private final DataSource dataSource;
  private final SqlDialect dialect;

  /** The store on {@code dataSource}, in the dialect of its URL. */
  public JdbcReviewStore(DataSource dataSource) {
    this(dataSource, SqlDialects.forDataSource(dataSource));
  }

  public JdbcReviewStore(DataSource dataSource, SqlDialect dialect) {
    this.dataSource = dataSource;
    this.dialect = dialect;
  }

  /** The outcome of a propose, approve or reject. */
  public sealed interface Result {
    record Done(ManualCommand command) implements Result {}

    record Refused(String code, String message) implements Result {}

    record NotFound() implements Result {}
  }

  public Result propose(
      long flowId,
      CommandKind kind,
      String operatorName,
      String ticket,
      String reason,
      String evidence,
      Instant now) {
    String operator = PersonNames.normalise(operatorName);
    return inTransaction(
        c -> {
          Optional<PayFlow> flow = lockFlow(c, flowId);
          if (flow.isEmpty()) {
            return new Result.NotFound();
          }
          CommandKind.Verdict verdict = kind.check(flow.get());
          if (!verdict.isAllowed()) {
            return new Result.Refused("command_not_applicable", verdict.refusal());
          }
          ManualCommand command =
              RowWrites.insert(
                  c,
                  """
                  INSERT INTO manual_command (flow_id, target_kind, target_id, kind,
                         expected_status, expected_version, operator_id, ticket, reason,
                         evidence, state, created_at)
                  VALUES (?, 'FLOW', ?, ?, ?, ?, ?, ?, ?, ?, 'PROPOSED', ?)
              """,
                  ps -> {
                    ps.setLong(1, flowId);
                    ps.setLong(2, flowId);
                    ps.setString(3, kind.name());
                    ps.setString(4, flow.get().status().name());
                    ps.setLong(5, flow.get().version());
                    ps.setString(6, operator);
                    ps.setString(7, ticket);
                    ps.setString(8, reason);
                    ps.setString(9, evidence);
                    ps.setObject(10, ts(now));
                  },
                  "manual_command",
                  JdbcReviewStore::command);
          ManualCommandWrites.audit(
              c,
              subject(command),
              operator,
              "OPERATOR",
              "PROPOSE",
              kind.name() + " ticket " + ticket,
              now);
          return new Result.Done(command);
        },
        "uk_command_open",
        "command_already_open",
        "the flow already has an open proposal");
  }

  public Result approve(long commandId, String approverName, Instant now) {
    String approver = PersonNames.normalise(approverName);
    if (!dialect.sharded()) {
      return inTransaction(
          c -> {
            Decidable open = decidable(c, commandId, approver);
            if (open.refusal() != null) {
              return open.refusal();
            }
            return record(c, open.command(), effect(c, open.command(), now), approver, now);
          },
          "ck_command_two_people",
          "same_person",
          "a command must be decided by another person than its proposer");
    }
    // Through a sharding driver manual_command lives on the first database and the flow on its
    // shard: one transaction would be two commits in no set order. The effect commits first, under
    // the command's lock, recorded in the flow's history under the command's id; the decision
    // commits after, in a transaction of its own. A decision lost in between is recorded by the
    // next approval, which finds the effect by the command's id instead of applying it again.
    Step step;
    try {
      step =
          Sql.inTransaction(
              dataSource,
              c -> {
                Decidable open = decidable(c, commandId, approver);
                return open.refusal() != null
                    ? new Step(open.refusal(), null)
                    : new Step(null, effect(c, open.command(), now));
              });
    } catch (SQLException e) {
      throw new StoreException("manual command", e);
    }
    if (step.refusal() != null) {
      return step.refusal();
    }
    return inTransaction(
        c -> {
          Decidable open = decidable(c, commandId, approver);
          if (open.refusal() != null) {
            return open.refusal();
          }
          return record(c, open.command(), step.effect(), approver, now);
        },
        "ck_command_two_people",
        "same_person",
        "a command must be decided by another person than its proposer");
  }

  /** Whether an approval's effect is in the flow, and whether this approval put it there. */
  private enum Effect {
    APPLIED,
    FLOW_CHANGED
  }

  /** The first transaction of a sharded approval: a refusal, or the effect. */
  private record Step(Result refusal, Effect effect) {}

  /**
   * Applies the command to its locked flow if the flow still holds what the proposal pinned;
   * otherwise the effect counts as applied only if the flow's history holds it under the command's
   * id (an earlier approval whose decision was lost).
   */
  private Effect effect(Connection c, ManualCommand cmd, Instant now) throws SQLException {
    PayFlow flow = lockFlow(c, cmd.flowId()).orElseThrow();
    boolean unchanged =
        flow.status().name().equals(cmd.expectedStatus())
            && flow.version() == cmd.expectedVersion();
    CommandKind.Verdict verdict = cmd.kind().check(flow);
    if (unchanged && verdict.isAllowed()) {
      CommandEffect.apply(c, dialect, cmd, flow, verdict.target().orElseThrow(), now);
      return Effect.APPLIED;
    }
    return CommandEffect.applied(c, cmd) ? Effect.APPLIED : Effect.FLOW_CHANGED;
  }

  /** The command's decision and its audit entry. */
  private static Result record(
      Connection c, ManualCommand cmd, Effect effect, String approver, Instant now)
      throws SQLException {
    if (effect == Effect.FLOW_CHANGED) {
      // The facts changed since the proposal: nobody approved acting on these.
      ManualCommand failed = decide(c, cmd, "FAILED", approver, "FLOW_CHANGED", now);
      ManualCommandWrites.audit(
          c, subject(cmd), approver, "APPROVER", "FAIL", "flow changed since proposal", now);
      return new Result.Done(failed);
    }
    ManualCommand applied = decide(c, cmd, "APPLIED", approver, "APPLIED", now);
    ManualCommandWrites.audit(
        c, subject(cmd), approver, "APPROVER", "APPROVE", cmd.kind().name(), now);
    return new Result.Done(applied);
  }

  public Result reject(long commandId, String approverName, String reason, Instant now) {
    String approver = PersonNames.normalise(approverName);
    return inTransaction(
        c -> {
          Decidable open = decidable(c, commandId, approver);
          if (open.refusal() != null) {
            return open.refusal();
          }
          ManualCommand cmd = open.command();
          if (dialect.sharded() && CommandEffect.applied(c, cmd)) {
            // An approval's effect committed and its decision was lost: the flow has moved under
            // this command, so it cannot be recorded as rejected.
            return new Result.Refused(
                "command_already_applied",
                "the command's effect is already in the flow: approve it to record the decision");
          }
          ManualCommand rejected = decide(c, cmd, "REJECTED", approver, reason, now);
          ManualCommandWrites.audit(c, subject(cmd), approver, "APPROVER", "REJECT", reason, now);
          return new Result.Done(rejected);
        },
        "ck_command_two_people",
        "same_person",
        "a command must be decided by another person than its proposer");
  }

  /** The open command a person may decide, or why not. */
  private record Decidable(ManualCommand command, Result refusal) {}

  private static Decidable decidable(Connection c, long commandId, String decider)
      throws SQLException {
    Optional<ManualCommand> open = lockCommand(c, commandId);
    if (open.isEmpty()) {
      return new Decidable(null, new Result.NotFound());
    }
    ManualCommand cmd = open.get();
    return MakerChecker.refusal(cmd.state(), cmd.operatorId(), decider)
        .map(r -> new Decidable(null, new Result.Refused(r.code(), r.message())))
        .orElseGet(() -> new Decidable(cmd, null));
  }

  // ---- plumbing ------------------------------------------------------------------------------

  /**
   * The flow, locked: its two tables joined by id, not the view, so that a sharding driver routes
   * the lock to the flow's shard (the same rows and locks as the view on every database).
   */
  private static Optional<PayFlow> lockFlow(Connection c, long flowId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT "
                + FLOW_COLUMNS
                + " FROM "
                + FlowReads.SHARDED_ROWS
                + " WHERE id = ? FOR UPDATE")) {
      ps.setLong(1, flowId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(FlowRows.map(rs)) : Optional.empty();
      }
    }
  }

  private static Optional<ManualCommand> lockCommand(Connection c, long commandId)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT * FROM manual_command WHERE id = ? AND target_kind = 'FLOW' FOR UPDATE")) {
      ps.setLong(1, commandId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(command(rs)) : Optional.empty();
      }
    }
  }

  private static ManualCommand decide(
      Connection c, ManualCommand cmd, String state, String approver, String result, Instant now)
      throws SQLException {
    return ManualCommandWrites.decide(
        c, cmd.id(), state, approver, result, now, JdbcReviewStore::command);
  }

  /** Where the audit rows of {@code cmd} belong. */
  private static ManualCommandWrites.Subject subject(ManualCommand cmd) {
    return new ManualCommandWrites.Subject(cmd.id(), cmd.flowId(), TargetKind.FLOW, cmd.flowId());
  }

  static ManualCommand command(ResultSet rs) throws SQLException {
    return new ManualCommand(
        rs.getLong("id"),
        rs.getLong("flow_id"),
        CommandKind.valueOf(rs.getString("kind")),
        rs.getString("expected_status"),
        rs.getLong("expected_version"),
        rs.getString("operator_id"),
        rs.getString("ticket"),
        rs.getString("reason"),
        rs.getString("evidence"),
        rs.getString("state"),
        rs.getString("approver_id"),
        rs.getString("result"),
        FlowRows.instant(rs, "created_at"),
        FlowRows.instant(rs, "decided_at"));
  }

  /**
   * Runs {@code work} in one transaction. A violation of {@code constraint} (a second open
   * proposal, the database's maker/checker) becomes a refusal with the given code.
   */
  private Result inTransaction(
      Sql.Work<Result> work, String constraint, String conflictCode, String conflictMessage) {
    try {
      return Sql.inTransaction(dataSource, work);
    } catch (SQLException e) {
      boolean constraintViolation = SqlErrors.isUniqueViolation(e) || SqlErrors.isCheckViolation(e);
      if (constraintViolation && String.valueOf(e.getMessage()).contains(constraint)) {
        return new Result.Refused(conflictCode, conflictMessage);
      }
      throw new StoreException("manual command", e);
    }
  }
}
