package dev.clearway.store.reconciliation;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.reconciliation.domain.DifferenceState;
import dev.clearway.core.reconciliation.domain.TicketCommand;
import dev.clearway.core.reconciliation.port.TicketCommands;
import dev.clearway.core.review.PersonNames;
import dev.clearway.store.MakerChecker;
import dev.clearway.store.Sql;
import dev.clearway.store.SqlErrors;
import dev.clearway.store.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Ticket commands with maker/checker over recon_command and recon_audit. A proposal pins the
 * difference's version; the approval, the difference's compare-and-set to RESOLVED with its history
 * row, the command's new state and the audit row commit in one transaction. A refusal rolls back,
 * so it writes nothing. People are stored and compared by their normalised name.
 */
public final class JdbcTicketCommands implements TicketCommands {
  private final DataSource dataSource;

  public JdbcTicketCommands(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  @Override
  public Result propose(Proposal p, Instant now) {
    String operator = PersonNames.normalise(p.operator());
    return inTransaction(
        c -> {
          Optional<TicketedDifference.Pinned> difference =
              TicketedDifference.lock(c, p.differenceId());
          if (difference.isEmpty()) {
            return new Result.NotFound();
          }
          if (difference.get().state() != DifferenceState.NEEDS_PERSON) {
            return new Result.Refused(
                "difference_not_waiting",
                "the difference is " + difference.get().state() + ", not NEEDS_PERSON");
          }
          TicketCommand command = insert(c, p, operator, difference.get().version(), now);
          TicketRows.appendAudit(
              c,
              command,
              operator,
              "OPERATOR",
              "PROPOSE",
              p.kind().name() + " ticket " + p.ticket(),
              now);
          return new Result.Done(command);
        },
        "uk_recon_command_open",
        "command_already_open",
        "the difference already has an open proposal");
  }

  @Override
  public Result approve(long commandId, String approverName, Instant now) {
    String approver = PersonNames.normalise(approverName);
    return inTransaction(
        c -> {
          Decidable open = decidable(c, commandId, approver);
          if (open.refusal() != null) {
            return open.refusal();
          }
          TicketCommand cmd = open.command();
          Optional<TicketedDifference.Pinned> current =
              TicketedDifference.lock(c, cmd.differenceId());
          boolean unchanged =
              current.isPresent()
                  && current.get().state() == DifferenceState.NEEDS_PERSON
                  && current.get().version() == cmd.expectedVersion();
          if (!unchanged
              || !TicketedDifference.resolve(
                  c,
                  cmd.differenceId(),
                  cmd.expectedVersion(),
                  approver,
                  cmd.kind().name() + " ticket " + cmd.ticket() + " by command " + cmd.id(),
                  now)) {
            // The difference moved since the proposal: nobody approved acting on these facts.
            TicketCommand failed =
                TicketRows.decide(c, cmd, "FAILED", approver, "DIFFERENCE_CHANGED", now);
            TicketRows.appendAudit(
                c, cmd, approver, "APPROVER", "FAIL", "difference changed since proposal", now);
            return new Result.Done(failed);
          }
          TicketCommand applied = TicketRows.decide(c, cmd, "APPLIED", approver, "APPLIED", now);
          TicketRows.appendAudit(c, cmd, approver, "APPROVER", "APPROVE", cmd.kind().name(), now);
          return new Result.Done(applied);
        },
        "ck_recon_command_two_people",
        "same_person",
        "a command must be approved by another person than its proposer");
  }

  @Override
  public Result reject(long commandId, String approverName, String reason, Instant now) {
    String approver = PersonNames.normalise(approverName);
    return inTransaction(
        c -> {
          Decidable open = decidable(c, commandId, approver);
          if (open.refusal() != null) {
            return open.refusal();
          }
          TicketCommand cmd = open.command();
          TicketCommand rejected = TicketRows.decide(c, cmd, "REJECTED", approver, reason, now);
          TicketRows.appendAudit(c, cmd, approver, "APPROVER", "REJECT", reason, now);
          return new Result.Done(rejected);
        },
        "ck_recon_command_two_people",
        "same_person",
        "a command must be decided by another person than its proposer");
  }

  private static TicketCommand insert(
      Connection c, Proposal p, String operator, long version, Instant now) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            INSERT INTO recon_command (difference_id, kind, expected_version, operator_id, ticket,
                   reason, evidence, state, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, 'PROPOSED', ?)
            """,
            new String[] {"id"})) {
      ps.setLong(1, p.differenceId());
      ps.setString(2, p.kind().name());
      ps.setLong(3, version);
      ps.setString(4, operator);
      ps.setString(5, p.ticket());
      ps.setString(6, p.reason());
      ps.setString(7, p.evidence());
      ps.setObject(8, ts(now));
      if (ps.executeUpdate() != 1) {
        throw new SQLException("recon_command row not inserted");
      }
      try (ResultSet keys = ps.getGeneratedKeys()) {
        if (!keys.next()) {
          throw new SQLException("recon_command insert returned no id");
        }
        return TicketRows.byId(c, keys.getLong(1));
      }
    }
  }

  /** The open command a person may decide, or why not. */
  private record Decidable(TicketCommand command, Result refusal) {}

  private static Decidable decidable(Connection c, long commandId, String decider)
      throws SQLException {
    Optional<TicketCommand> open = lockCommand(c, commandId);
    if (open.isEmpty()) {
      return new Decidable(null, new Result.NotFound());
    }
    TicketCommand cmd = open.get();
    return MakerChecker.refusal(cmd.state(), cmd.operatorId(), decider)
        .map(r -> new Decidable(null, new Result.Refused(r.code(), r.message())))
        .orElseGet(() -> new Decidable(cmd, null));
  }

  private static Optional<TicketCommand> lockCommand(Connection c, long commandId)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT * FROM recon_command WHERE id = ? FOR UPDATE")) {
      ps.setLong(1, commandId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(TicketRows.command(rs)) : Optional.empty();
      }
    }
  }

  /**
   * Runs {@code work} in one transaction, committed only when it is done (a refusal rolls back). A
   * violation of {@code constraint} (a second open proposal, the database's maker/checker) becomes
   * a refusal with the given code.
   */
  private Result inTransaction(
      Sql.Work<Result> work, String constraint, String conflictCode, String conflictMessage) {
    try {
      return Sql.inTransaction(dataSource, work, r -> r instanceof Result.Done);
    } catch (SQLException e) {
      boolean constraintViolation = SqlErrors.isUniqueViolation(e) || SqlErrors.isCheckViolation(e);
      if (constraintViolation && String.valueOf(e.getMessage()).contains(constraint)) {
        return new Result.Refused(conflictCode, conflictMessage);
      }
      throw new StoreException("reconciliation ticket command", e);
    }
  }
}
