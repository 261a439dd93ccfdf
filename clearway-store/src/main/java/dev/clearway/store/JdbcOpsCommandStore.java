package dev.clearway.store;

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
 * commits the target's move, the command's new state and the audit entry in one transaction. On a
 * sharded layout the target's move commits first, on its shard, and the decision after, on the
 * first database (see {@link #approve}).
 */
public final class JdbcOpsCommandStore {

  private final DataSource dataSource;

  /** Whether a target moves in several statements (no data-modifying CTE: the MySQL family). */
  private final boolean inSteps;

  /** Whether the commands and their targets live on different databases (a sharding driver). */
  private final boolean sharded;

  /** A store on the database behind {@code dataSource}, its dialect read from its URL. */
  public JdbcOpsCommandStore(DataSource dataSource) {
    this(dataSource, SqlDialects.forDataSource(dataSource));
  }

  public JdbcOpsCommandStore(DataSource dataSource, SqlDialect dialect) {
    this.dataSource = dataSource;
    this.inSteps = !dialect.writesReturnRows();
    this.sharded = dialect.sharded();
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
          OpsCommand command = OpsCommandRows.insert(c, p, operator, target.get(), now);
          ManualCommandWrites.audit(
              c,
              OpsCommandRows.subject(command),
              operator,
              "OPERATOR",
              "PROPOSE",
              p.kind() + " ticket " + p.ticket(),
              now);
          return new Result.Done(command);
        },
        "uk_command_open",
        "command_already_open",
        "the target already has an open proposal");
  }

  public Result approve(long commandId, String approverName, Instant now) {
    String approver = PersonNames.normalise(approverName);
    if (!sharded) {
      return run(
          c -> {
            Step step = effect(c, commandId, approver, now);
            return step.refusal() != null ? step.refusal() : record(c, step, approver, now);
          },
          "ck_command_two_people",
          "same_person",
          "a command must be approved by another person than its proposer");
    }
    // Through a sharding driver manual_command lives on the first database and the target on its
    // payment's shard: one transaction would be two commits in no set order. The effect commits
    // first, under the command's lock, tagged on the target's shard with the command's id; the
    // decision commits after, in a transaction of its own. A decision lost in between is recorded
    // by the next approval, which finds the effect by its tag instead of applying it again.
    Step step;
    try {
      step =
          Sql.inTransaction(
              dataSource, c -> effect(c, commandId, approver, now), s -> s.refusal() == null);
    } catch (SQLException e) {
      throw new StoreException("manual command", e);
    }
    if (step.refusal() != null) {
      return step.refusal();
    }
    return run(
        c -> {
          Result open = decidable(c, commandId, approver);
          return open instanceof Result.Done done
              ? record(c, new Step(done.command(), step.target(), null), approver, now)
              : open;
        },
        "ck_command_two_people",
        "same_person",
        "a command must be approved by another person than its proposer");
  }

  /** An approval's effect: the command and the status its target now holds, or a refusal. */
  private record Step(OpsCommand command, String target, Result refusal) {
    static Step refused(Result refusal) {
      return new Step(null, null, refusal);
    }
  }

  /**
   * Locks the command and its target and applies the command if the target still holds what the
   * proposal pinned and the command still applies; a target that moved is refused ({@code
   * stale_target}, nothing written), unless on a sharded layout the move is this command's own
   * effect, found by its tag (an earlier approval whose decision was lost).
   */
  private Step effect(Connection c, long commandId, String approver, Instant now)
      throws SQLException {
    Result open = decidable(c, commandId, approver);
    if (!(open instanceof Result.Done done)) {
      return Step.refused(open);
    }
    OpsCommand cmd = done.command();
    OpsTargets.Locked target = OpsTargets.lock(c, cmd.targetKind(), cmd.targetId()).orElseThrow();
    if (!target.facts().status().equals(cmd.expectedStatus())
        || target.version() != cmd.expectedVersion()) {
      Optional<String> applied = sharded ? OpsTargets.applied(c, cmd) : Optional.empty();
      return applied
          .map(to -> new Step(cmd, to, null))
          .orElseGet(() -> Step.refused(stale(cmd, target)));
    }
    OpsVerdict verdict = cmd.kind().check(target.facts());
    if (!verdict.isAllowed()) {
      return Step.refused(new Result.Refused(verdict.code(), verdict.message()));
    }
    if (!OpsTargets.apply(c, cmd, target, verdict.target(), now, inSteps)) {
      throw new SQLException("command " + cmd.id() + ": target changed under its lock");
    }
    return new Step(cmd, verdict.target(), null);
  }

  private static Result stale(OpsCommand cmd, OpsTargets.Locked target) {
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

  /** The command recorded APPLIED with the status its effect set, and the audit entry. */
  private static Result record(Connection c, Step step, String approver, Instant now)
      throws SQLException {
    OpsCommand cmd = step.command();
    OpsCommand applied = OpsCommandRows.decide(c, cmd, "APPLIED", approver, step.target(), now);
    ManualCommandWrites.audit(
        c,
        OpsCommandRows.subject(cmd),
        approver,
        "APPROVER",
        "APPROVE",
        cmd.kind() + " -> " + step.target(),
        now);
    return new Result.Done(applied);
  }

  public Result reject(long commandId, String approverName, String reason, Instant now) {
    String approver = PersonNames.normalise(approverName);
    return run(
        c -> {
          Result open = decidable(c, commandId, approver);
          if (!(open instanceof Result.Done done)) {
            return open;
          }
          if (sharded && OpsTargets.applied(c, done.command()).isPresent()) {
            // An approval's effect committed and its decision was lost: the target moved under
            // this command, so it cannot be recorded as rejected.
            return new Result.Refused(
                "command_already_applied",
                "the command's effect is already on its target: approve it to record the decision");
          }
          OpsCommand rejected =
              OpsCommandRows.decide(c, done.command(), "REJECTED", approver, reason, now);
          ManualCommandWrites.audit(
              c,
              OpsCommandRows.subject(done.command()),
              approver,
              "APPROVER",
              "REJECT",
              reason,
              now);
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
          out.add(OpsCommandRows.command(rs));
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
        cmd = OpsCommandRows.command(rs);
      }
    }
    return MakerChecker.refusal(cmd.state(), cmd.operatorId(), decider)
        .<Result>map(r -> new Result.Refused(r.code(), r.message()))
        .orElseGet(() -> new Result.Done(cmd));
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
