package dev.clearway.store;

import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.review.CompensationStatus;
import dev.clearway.core.review.TargetFacts;
import dev.clearway.core.review.TargetKind;
import dev.clearway.store.channel.ManualChannelEffects;
import dev.clearway.store.channel.ManualChannelEffects.LockedAttempt;
import dev.clearway.store.channel.ManualChannelEffects.LockedCompensation;
import dev.clearway.store.review.OpsCommand;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/**
 * The rows manual commands act on, other than flows: each one locked FOR UPDATE and read as the
 * facts its command is decided on, then moved by compare-and-set on the version read, inside the
 * approval's transaction.
 */
final class OpsTargets {

  private OpsTargets() {}

  /** A target under its lock: the facts, the version pinned, and the row itself. */
  record Locked(TargetFacts facts, long version, Object row) {}

  static Optional<Locked> lock(Connection c, TargetKind kind, long id) throws SQLException {
    return switch (kind) {
      case REFUND_ORDER -> OpsRefundMoves.lock(c, id);
      case ATTEMPT ->
          ManualChannelEffects.lockAttempt(c, id)
              .map(
                  a ->
                      new Locked(
                          new TargetFacts.Attempt(a.attempt().status(), a.task(), a.taskError()),
                          a.attempt().version(),
                          a));
      case COMPENSATION ->
          ManualChannelEffects.lockCompensation(c, id)
              .map(k -> new Locked(new TargetFacts.Compensation(k.status()), k.version(), k));
      case FLOW -> throw new IllegalArgumentException("flows are commanded through review");
    };
  }

  /**
   * Applies an allowed command; false when the row moved under its lock (it cannot). {@code
   * inSteps}: the database has no data-modifying CTE (the MySQL family), a refund moves in several
   * statements of the caller's transaction.
   */
  static boolean apply(
      Connection c, OpsCommand cmd, Locked target, String to, Instant now, boolean inSteps)
      throws SQLException {
    return switch (cmd.targetKind()) {
      case REFUND_ORDER ->
          inSteps
              ? OpsRefundMoves.moveInSteps(c, cmd, target, RefundStatus.valueOf(to), now)
              : OpsRefundMoves.move(c, cmd, target, RefundStatus.valueOf(to), now);
      case ATTEMPT -> settleAttempt(c, cmd, (LockedAttempt) target.row(), to, now);
      case COMPENSATION ->
          ManualChannelEffects.settleCompensation(
              c,
              (LockedCompensation) target.row(),
              CompensationStatus.valueOf(to),
              compensationNote(cmd),
              cmd.id(),
              now);
      case FLOW -> throw new IllegalArgumentException("flows are commanded through review");
    };
  }

  /**
   * An attempt settled by a person: confirmed or kept (SUCCEEDED), confirmed failed (FAILED), or a
   * charge of another amount refunded or handed to finance (FAILED, with its compensation).
   */
  private static boolean settleAttempt(
      Connection c, OpsCommand cmd, LockedAttempt a, String to, Instant now) throws SQLException {
    String ref = tag(cmd);
    AttemptStatus status = AttemptStatus.valueOf(to);
    return switch (cmd.kind()) {
      case REFUND_MISMATCHED_CHARGE ->
          ManualChannelEffects.settleMismatch(
              c, a.attempt(), CompensationStatus.PENDING, cmd.amount(), cmd.evidence(), ref, now);
      case MISMATCH_TO_FINANCE ->
          ManualChannelEffects.settleMismatch(
              c, a.attempt(), CompensationStatus.FINANCE, cmd.amount(), cmd.evidence(), ref, now);
      default ->
          ManualChannelEffects.settleAttempt(c, a.attempt(), status, cmd.evidence(), ref, now);
    };
  }

  /**
   * Where the effect of {@code cmd} already is, found by the command's tag its effect wrote on the
   * target's shard: the status the effect set, or empty. A refund's history row and an attempt's
   * MANUAL evidence row carry the request id {@code cmd-<id>}; a compensation keeps the id of the
   * last command that moved it and the status that command set, which its worker never writes.
   */
  static Optional<String> applied(Connection c, OpsCommand cmd) throws SQLException {
    String tag = tag(cmd);
    return switch (cmd.targetKind()) {
      case REFUND_ORDER -> OpsRefundMoves.applied(c, cmd.targetId(), tag);
      case ATTEMPT ->
          first(
              c,
              "SELECT provider_status FROM provider_evidence"
                  + " WHERE attempt_id = ? AND source = 'MANUAL' AND request_id = ?",
              cmd.targetId(),
              tag);
      case COMPENSATION ->
          first(
              c,
              "SELECT command_status FROM attempt_compensation"
                  + " WHERE attempt_id = ? AND command_id = ?",
              cmd.targetId(),
              cmd.id());
      case FLOW -> throw new IllegalArgumentException("flows are commanded through review");
    };
  }

  /** The request id a command's effect carries on its target's rows. */
  static String tag(OpsCommand cmd) {
    return "cmd-" + cmd.id();
  }

  /** A compensation's {@code last_error} after a command moved it: the kind and the command. */
  private static String compensationNote(OpsCommand cmd) {
    return cmd.kind().name() + " " + tag(cmd);
  }

  static Optional<String> first(Connection c, String sql, Object... params) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.empty();
      }
    }
  }
}
