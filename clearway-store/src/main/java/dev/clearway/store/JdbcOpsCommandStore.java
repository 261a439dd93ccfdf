package dev.clearway.store;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.review.OpsCommandKind;
import dev.clearway.core.review.OpsVerdict;
import dev.clearway.core.review.PersonNames;
import dev.clearway.core.review.TargetKind;
import dev.clearway.store.review.OpsCommand;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Manual commands on refund orders, attempts and compensations, with the same maker/checker, table
 * and audit as flow commands ({@link JdbcReviewStore}). A proposal is decided by {@link
 * OpsCommandKind#check} on the target as it stands and pins its status and version; the approval
 * locks the target, refuses ({@code stale_target}, nothing written) if it moved, decides again, and
 * commits the target's move, the command's new state and the audit entry in one transaction.
 */
public final class JdbcOpsCommandStore {

  private final DataSource dataSource;

  /** Whether a target moves in several statements (no data-modifying CTE: the MySQL family). */
  private final boolean inSteps;

  /** A store on the database behind {@code dataSource}, its dialect read from its URL. */
  public JdbcOpsCommandStore(DataSource dataSource) {
    this(dataSource, SqlDialects.forDataSource(dataSource));
  }

  public JdbcOpsCommandStore(DataSource dataSource, SqlDialect dialect) {
    this.dataSource = dataSource;
    this.inSteps = !dialect.writesReturnRows();
  }

  /** The outcome of a propose, approve or reject. */
  public sealed interface Result {
    record Done(OpsCommand command) implements Result {}

    record Refused(String code, String message) implements Result {}

    record NotFound() implements Result {}
  }

  /** What an operator proposes; {@code amount} only for the kinds that take one. */
  public record Proposal(
      OpsCommandKind kind,
      long targetId,
      String operator,
      String ticket,
      String reason,
      String evidence,
      Long amount) {

    public Proposal(
        OpsCommandKind kind,
        long targetId,
        String operator,
        String ticket,
        String reason,
        String evidence) {
      this(kind, targetId, operator, ticket, reason, evidence, null);
    }
  }

  public Result propose(Proposal p, Instant now) {
    String operator = PersonNames.normalise(p.operator());
    return run(
        c -> {
          Optional<OpsTargets.Locked> target = OpsTargets.lock(c, p.kind().target(), p.targetId());
          if (target.isEmpty()) {
            return new Result.NotFound();
          }
          OpsVerdict verdict = p.kind().check(target.get().facts());
          if (!verdict.isAllowed()) {
            return new Result.Refused(verdict.code(), verdict.message());
          }
          OpsCommand command = insert(c, p, operator, target.get(), now);
          audit(
              c, command, operator, "OPERATOR", "PROPOSE", p.kind() + " ticket " + p.ticket(), now);
          return new Result.Done(command);
        },
        "uk_command_open",
        "command_already_open",
        "the target already has an open proposal");
  }

  public Result approve(long commandId, String approverName, Instant now) {
    String approver = PersonNames.normalise(approverName);
    return run(
        c -> {
          Result open = decidable(c, commandId, approver);
          if (!(open instanceof Result.Done done)) {
            return open;
          }
          OpsCommand cmd = done.command();
          OpsTargets.Locked target =
              OpsTargets.lock(c, cmd.targetKind(), cmd.targetId()).orElseThrow();
          if (!target.facts().status().equals(cmd.expectedStatus())
              || target.version() != cmd.expectedVersion()) {
            return new Result.Refused(
                "stale_target",
                "the target moved since the proposal ("
                    + cmd.expectedStatus()
                    + " v"
                    + cmd.expectedVersion()
                    + ", now "
                    + target.facts().status()
                    + " v"
                    + target.version()
                    + "): reject this command and propose again");
          }
          OpsVerdict verdict = cmd.kind().check(target.facts());
          if (!verdict.isAllowed()) {
            return new Result.Refused(verdict.code(), verdict.message());
          }
          if (!OpsTargets.apply(c, cmd, target, verdict.target(), now, inSteps)) {
            throw new SQLException("command " + cmd.id() + ": target changed under its lock");
          }
          OpsCommand applied = decide(c, cmd, "APPLIED", approver, verdict.target(), now);
          audit(
              c, cmd, approver, "APPROVER", "APPROVE", cmd.kind() + " -> " + verdict.target(), now);
          return new Result.Done(applied);
        },
        "ck_command_two_people",
        "same_person",
        "a command must be approved by another person than its proposer");
  }

  public Result reject(long commandId, String approverName, String reason, Instant now) {
    String approver = PersonNames.normalise(approverName);
    return run(
        c -> {
          Result open = decidable(c, commandId, approver);
          if (!(open instanceof Result.Done done)) {
            return open;
          }
          OpsCommand rejected = decide(c, done.command(), "REJECTED", approver, reason, now);
          audit(c, done.command(), approver, "APPROVER", "REJECT", reason, now);
          return new Result.Done(rejected);
        },
        "ck_command_two_people",
        "same_person",
        "a command must be decided by another person than its proposer");
  }

  /** The commands of one target with an id below {@code beforeId}, newest first. */
  public List<OpsCommand> commands(TargetKind kind, long targetId, long beforeId, int limit) {
    return list(
        "SELECT * FROM manual_command WHERE target_kind = ? AND target_id = ? AND id < ?"
            + " ORDER BY id DESC LIMIT ?",
        kind.name(),
        targetId,
        beforeId,
        limit);
  }

  /** Open proposals on targets other than flows with an id below {@code beforeId}, newest first. */
  public List<OpsCommand> openCommands(long beforeId, int limit) {
    return list(
        "SELECT * FROM manual_command WHERE state = 'PROPOSED' AND target_kind <> 'FLOW'"
            + " AND id < ? ORDER BY id DESC LIMIT ?",
        beforeId,
        limit);
  }

  /**
   * The flow whose payment an attempt carries, woken after a person settled the attempt: its
   * gateway reads the attempt and the flow moves through its usual transition. The attempt and the
   * flow are read by a statement each (the attempt by its id, the flow by the attempt's order
   * number), each routed to the payment's shard by a sharding driver, which cannot route a join of
   * the two (they are not bound).
   */
  public Optional<Long> flowOfAttempt(long attemptId) {
    try (Connection c = dataSource.getConnection()) {
      Optional<String> orderNo =
          first(
              c,
              "SELECT trade_order_no FROM payment_attempt WHERE id = ?",
              ps -> ps.setLong(1, attemptId),
              rs -> rs.getString(1));
      if (orderNo.isEmpty()) {
        return Optional.empty();
      }
      return first(
          c,
          "SELECT id FROM pay_flow_fact WHERE trade_order_no = ?",
          ps -> ps.setString(1, orderNo.get()),
          rs -> rs.getLong(1));
    } catch (SQLException e) {
      throw new StoreException("flow of attempt", e);
    }
  }

  private static <T> Optional<T> first(
      Connection c, String sql, Sql.Binder binder, Sql.RowMapper<T> mapper) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      binder.bind(ps);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.ofNullable(mapper.map(rs)) : Optional.empty();
      }
    }
  }

  private List<OpsCommand> list(String sql, Object... params) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      List<OpsCommand> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(command(rs));
        }
      }
      return out;
    } catch (SQLException e) {
      throw new StoreException("manual command list", e);
    }
  }

  /** The open command (as Done) a person may decide, or why not. */
  private static Result decidable(Connection c, long commandId, String decider)
      throws SQLException {
    OpsCommand cmd;
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT * FROM manual_command WHERE id = ? AND target_kind <> 'FLOW' FOR UPDATE")) {
      ps.setLong(1, commandId);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return new Result.NotFound();
        }
        cmd = command(rs);
      }
    }
    if (!"PROPOSED".equals(cmd.state())) {
      return new Result.Refused("command_not_open", "the command is " + cmd.state());
    }
    if (PersonNames.same(cmd.operatorId(), decider)) {
      return new Result.Refused(
          "same_person", "a command must be decided by another person than its proposer");
    }
    return new Result.Done(cmd);
  }

  private static OpsCommand insert(
      Connection c, Proposal p, String operator, OpsTargets.Locked target, Instant now)
      throws SQLException {
    return RowWrites.insert(
        c,
        """
            INSERT INTO manual_command (target_kind, target_id, kind, expected_status,
                   expected_version, operator_id, ticket, reason, evidence, amount, state,
                   created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'PROPOSED', ?)
        """,
        ps -> {
          ps.setString(1, p.kind().target().name());
          ps.setLong(2, p.targetId());
          ps.setString(3, p.kind().name());
          ps.setString(4, target.facts().status());
          ps.setLong(5, target.version());
          ps.setString(6, operator);
          ps.setString(7, p.ticket());
          ps.setString(8, p.reason());
          ps.setString(9, p.evidence());
          ps.setObject(10, p.amount(), java.sql.Types.BIGINT);
          ps.setObject(11, ts(now));
        },
        "manual_command",
        JdbcOpsCommandStore::command);
  }

  private static OpsCommand decide(
      Connection c, OpsCommand cmd, String state, String approver, String result, Instant now)
      throws SQLException {
    return RowWrites.update(
            c,
            "UPDATE manual_command SET state = ?, approver_id = ?, result = ?, decided_at = ?"
                + " WHERE id = ? AND state = 'PROPOSED'",
            ps -> {
              ps.setString(1, state);
              ps.setString(2, approver);
              ps.setString(3, Sql.truncate(result, 200));
              ps.setObject(4, ts(now));
              ps.setLong(5, cmd.id());
            },
            "manual_command",
            cmd.id(),
            JdbcOpsCommandStore::command)
        .orElseThrow(
            () -> new SQLException("command " + cmd.id() + " left PROPOSED under its lock"));
  }

  private static void audit(
      Connection c,
      OpsCommand cmd,
      String actor,
      String role,
      String action,
      String detail,
      Instant now)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            INSERT INTO manual_audit (command_id, target_kind, target_id, actor_id, role, action,
                   detail, at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)) {
      ps.setLong(1, cmd.id());
      ps.setString(2, cmd.targetKind().name());
      ps.setLong(3, cmd.targetId());
      ps.setString(4, actor);
      ps.setString(5, role);
      ps.setString(6, action);
      ps.setString(7, Sql.truncate(detail, 500));
      ps.setObject(8, ts(now));
      ps.executeUpdate();
    }
  }

  static OpsCommand command(ResultSet rs) throws SQLException {
    return new OpsCommand(
        rs.getLong("id"),
        TargetKind.valueOf(rs.getString("target_kind")),
        rs.getLong("target_id"),
        OpsCommandKind.valueOf(rs.getString("kind")),
        rs.getString("expected_status"),
        rs.getLong("expected_version"),
        rs.getString("operator_id"),
        rs.getString("ticket"),
        rs.getString("reason"),
        rs.getString("evidence"),
        rs.getObject("amount", Long.class),
        rs.getString("state"),
        rs.getString("approver_id"),
        rs.getString("result"),
        FlowRows.instant(rs, "created_at"),
        FlowRows.instant(rs, "decided_at"));
  }

  /**
   * Runs {@code work} in one transaction, committed only when it did what was asked (a refusal
   * leaves nothing behind). A violation of {@code constraint} becomes a refusal with the code.
   */
  private Result run(Sql.Work<Result> work, String constraint, String code, String message) {
    try {
      return Sql.inTransaction(dataSource, work, r -> r instanceof Result.Done);
    } catch (SQLException e) {
      boolean violation = SqlErrors.isUniqueViolation(e) || SqlErrors.isCheckViolation(e);
      if (violation && String.valueOf(e.getMessage()).contains(constraint)) {
        return new Result.Refused(code, message);
      }
      throw new StoreException("manual command", e);
    }
  }
}
