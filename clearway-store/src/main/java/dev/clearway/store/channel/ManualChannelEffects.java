package dev.clearway.store.channel;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.RecoveryTask.TaskStatus;
import dev.clearway.core.channel.engine.CompensationWorker;
import dev.clearway.core.channel.spi.ResultCertainty;
import dev.clearway.core.review.CompensationStatus;
import dev.clearway.store.Sql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The channel rows a person's approved command moves, inside the approval's transaction: an attempt
 * settled from evidence (with its MANUAL evidence row, history, outbox event and resolved task, as
 * a recorded observation leaves them), and a compensation refunded again, kept or handed to
 * finance. Every write is a compare-and-set on the version read under the row's lock. Every
 * statement names the attempt (its id or trade order number), and the events are written with the
 * merchant read by a statement of its own, so a sharding driver routes each to the attempt's shard.
 */
public final class ManualChannelEffects {
  private static final int CODE_MAX = 64;
  private static final int REFERENCE_MAX = 128;

  private ManualChannelEffects() {}

  /**
   * An attempt locked for a command, with its recovery task's status and last error (null without a
   * task).
   */
  public record LockedAttempt(Attempt attempt, TaskStatus task, String taskError) {}

  /** A compensation locked for a command. */
  public record LockedCompensation(
      long attemptId,
      String tradeOrderNo,
      String refundNo,
      long amount,
      CompensationStatus status,
      long version) {}

  public static Optional<LockedAttempt> lockAttempt(Connection c, long attemptId)
      throws SQLException {
    // The attempt alone is locked (its recovery task is read, not locked): a lock of the joined
    // rows would need FOR UPDATE OF, which MariaDB lacks.
    Attempt attempt;
    try (PreparedStatement ps =
        c.prepareStatement("SELECT * FROM payment_attempt WHERE id = ? FOR UPDATE")) {
      ps.setLong(1, attemptId);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        attempt = ChannelRows.attempt(rs);
      }
    }
    try (PreparedStatement ps =
        c.prepareStatement("SELECT status, last_error FROM recovery_task WHERE attempt_id = ?")) {
      ps.setLong(1, attemptId);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Optional.of(new LockedAttempt(attempt, null, null));
        }
        return Optional.of(
            new LockedAttempt(
                attempt, TaskStatus.valueOf(rs.getString("status")), rs.getString("last_error")));
      }
    }
  }

  /**
   * Settles an attempt on a person's evidence: SUCCEEDED (charged) or FAILED (definitely not
   * charged). The evidence ({@code reference}, a person's text) is kept on the MANUAL evidence row,
   * never in the attempt's PSP id, which only a PSP's answer writes. False when the attempt moved
   * since it was read.
   */
  public static boolean settleAttempt(
      Connection c,
      Attempt from,
      AttemptStatus to,
      String reference,
      String commandRef,
      Instant now)
      throws SQLException {
    String error = to == AttemptStatus.FAILED ? "MANUAL_CONFIRMED_FAILED" : null;
    return settleAttempt(c, from, to, error, reference, commandRef, now);
  }

  /**
   * A charge of another amount than the attempt asked, not accepted by a person: the attempt ends
   * FAILED (no failover: the order was paid, if for another amount) and a compensation of {@code
   * amount} (the charge the evidence shows) is opened, PENDING for the compensation worker to
   * refund by the attempt's fixed compensation number, or FINANCE (final, settled outside the
   * engine, with its domain event). False when the attempt moved since it was read or already has a
   * compensation.
   */
  public static boolean settleMismatch(
      Connection c,
      Attempt from,
      CompensationStatus compensation,
      long amount,
      String reference,
      String commandRef,
      Instant now)
      throws SQLException {
    String error = "AMOUNT_MISMATCH_" + (compensation.isSettled() ? "FINANCE" : "REFUNDED");
    if (!settleAttempt(c, from, AttemptStatus.FAILED, error, reference, commandRef, now)) {
      return false;
    }
    String refundNo = CompensationWorker.refundNo(from);
    int opened =
        update(
            c,
            """
            INSERT INTO attempt_compensation (attempt_id, trade_order_no, refund_no, amount, status,
                   reason, last_error, due_at, created_at, updated_at)
            SELECT id, ?, ?, ?, ?, 'AMOUNT_MISMATCH', ?, ?, ?, ?
              FROM payment_attempt
             WHERE id = ?
               AND NOT EXISTS (SELECT 1 FROM attempt_compensation WHERE attempt_id = ?)
            """,
            from.tradeOrderNo(),
            refundNo,
            amount,
            compensation.name(),
            commandRef,
            Sql.ts(now),
            Sql.ts(now),
            Sql.ts(now),
            from.id(),
            from.id());
    // The attempt's row lock (the CAS above) serialises every writer of its compensation: none
    // can insert between the check and the insert.
    if (opened != 1) {
      return false;
    }
    if (compensation.isSettled()) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("attemptId", from.id());
      fields.put("tradeOrderNo", from.tradeOrderNo());
      fields.put("refundNo", refundNo);
      fields.put("amount", amount);
      fields.put("status", compensation.name());
      AttemptEventRows.insertOutboxValues(
          c,
          "compensation-" + from.id() + "-" + compensation.name(),
          "MismatchedChargeSettledByPerson",
          from.id(),
          from.tradeOrderNo(),
          AttemptEventRows.json(fields),
          now);
    }
    return true;
  }

  private static boolean settleAttempt(
      Connection c,
      Attempt from,
      AttemptStatus to,
      String error,
      String reference,
      String commandRef,
      Instant now)
      throws SQLException {
    ResultCertainty certainty =
        to == AttemptStatus.SUCCEEDED
            ? ResultCertainty.CONFIRMED_SUCCESS
            : ResultCertainty.DEFINITE_FAILURE;
    String ref = Sql.truncate(reference, REFERENCE_MAX);
    int moved =
        update(
            c,
            """
            UPDATE payment_attempt SET status = ?, result_certainty = ?, error_code = ?,
              failover_eligible = FALSE, version = version + 1, updated_at = ?
            WHERE id = ? AND version = ? AND status = ?
            """,
            to.name(),
            certainty.name(),
            error,
            Sql.ts(now),
            from.id(),
            from.version(),
            from.status().name());
    if (moved != 1) {
      return false;
    }
    long evidenceId = manualEvidence(c, from, to, certainty, ref, commandRef, now);
    update(
        c,
        """
        INSERT INTO payment_attempt_history
          (attempt_id, version, from_status, to_status, certainty, source, evidence_id, at)
        VALUES (?, ?, ?, ?, ?, 'MANUAL', ?, ?)
        """,
        from.id(),
        from.version() + 1,
        from.status().name(),
        to.name(),
        certainty.name(),
        evidenceId,
        Sql.ts(now));
    update(
        c,
        """
        UPDATE recovery_task SET status = 'RESOLVED', lease_owner = NULL, lease_until = NULL,
          evidence_id = ?, last_error = NULL, version = version + 1, updated_at = ?
        WHERE attempt_id = ? AND status <> 'RESOLVED'
        """,
        evidenceId,
        Sql.ts(now),
        from.id());
    AttemptEventRows.outbox(c, from, to, now, true);
    return true;
  }

  private static long manualEvidence(
      Connection c,
      Attempt a,
      AttemptStatus to,
      ResultCertainty certainty,
      String reference,
      String commandRef,
      Instant now)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            INSERT INTO provider_evidence (attempt_id, source, operation, certainty,
                   provider_status, provider_object_id, request_id, observed_at)
            VALUES (?, 'MANUAL', 'MANUAL_CONFIRM', ?, ?, ?, ?, ?)
            """,
            new String[] {"id"})) {
      ps.setLong(1, a.id());
      ps.setString(2, certainty.name());
      ps.setString(3, to.name());
      ps.setString(4, reference);
      ps.setString(5, commandRef);
      ps.setObject(6, Sql.ts(now));
      ps.executeUpdate();
      try (ResultSet rs = ps.getGeneratedKeys()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  private static int update(Connection c, String sql, Object... params) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      return ps.executeUpdate();
    }
  }

  public static Optional<LockedCompensation> lockCompensation(Connection c, long attemptId)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT attempt_id, trade_order_no, refund_no, amount, status, version"
                + " FROM attempt_compensation WHERE attempt_id = ? FOR UPDATE")) {
      ps.setLong(1, attemptId);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        return Optional.of(
            new LockedCompensation(
                rs.getLong("attempt_id"),
                rs.getString("trade_order_no"),
                rs.getString("refund_no"),
                rs.getLong("amount"),
                CompensationStatus.valueOf(rs.getString("status")),
                rs.getLong("version")));
      }
    }
  }

  /**
   * Moves a compensation waiting for a person: back to PENDING, due now (the worker refunds it by
   * the same refund number), or settled as KEPT or FINANCE with its domain event. {@code note}
   * becomes its {@code last_error}; {@code commandId} and the status set are kept apart in columns
   * the compensation worker never writes, by which a later approval finds the command's effect.
   * False when it moved since it was read.
   */
  public static boolean settleCompensation(
      Connection c,
      LockedCompensation k,
      CompensationStatus to,
      String note,
      long commandId,
      Instant now)
      throws SQLException {
    int moved =
        update(
            c,
            """
            UPDATE attempt_compensation SET status = ?, last_error = ?, command_id = ?,
              command_status = ?, due_at = ?, version = version + 1, updated_at = ?
            WHERE attempt_id = ? AND version = ? AND status = ?
            """,
            to.name(),
            Sql.truncate(note, CODE_MAX),
            commandId,
            to.name(),
            Sql.ts(now),
            Sql.ts(now),
            k.attemptId(),
            k.version(),
            k.status().name());
    if (moved != 1) {
      return false;
    }
    if (to.isSettled()) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("attemptId", k.attemptId());
      fields.put("tradeOrderNo", k.tradeOrderNo());
      fields.put("refundNo", k.refundNo());
      fields.put("amount", k.amount());
      fields.put("status", to.name());
      AttemptEventRows.insertOutboxValues(
          c,
          "compensation-" + k.attemptId() + "-" + to.name(),
          "DuplicateChargeSettledByPerson",
          k.attemptId(),
          k.tradeOrderNo(),
          AttemptEventRows.json(fields),
          now);
    }
    return true;
  }
}
