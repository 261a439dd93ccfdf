package dev.clearway.core.channel.port;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Compensations: refunds of charges found on attempts recorded FAILED. Claimed with a lease and
 * fenced by the version the claim bumped.
 */
public interface CompensationStore {

  /**
   * Opens the compensation of an attempt charged although recorded FAILED (a late success, a PSP
   * that lied). Idempotent: true only the first time.
   */
  boolean openCompensation(Compensation compensation, Instant now);

  /**
   * Claims up to {@code limit} due PENDING compensations (FOR UPDATE SKIP LOCKED): each is pushed
   * out to {@code now + lease}, so no other worker takes it meanwhile, and its version is bumped.
   * The returned rows carry the new version, which fences the claimant's update.
   */
  List<Compensation> claimCompensations(int limit, Duration lease, Instant now);

  /**
   * CAS on the version the claim returned (a claim bumps it): false, and nothing written, when the
   * claim was taken over or the compensation settled by another worker. A settled compensation (not
   * PENDING) and its outbox event commit together. {@code now} is the time recorded.
   */
  boolean updateCompensation(
      Compensation expected, String status, String error, Instant dueAt, Instant now);

  record Compensation(
      long attemptId,
      String tradeOrderNo,
      String refundNo,
      long amount,
      String status,
      String reason,
      int tries,
      long version) {

    /** A new compensation of a charge found on a failed attempt. */
    public static Compensation opening(
        long attemptId, String tradeOrderNo, String refundNo, long amount, String reason) {
      return new Compensation(attemptId, tradeOrderNo, refundNo, amount, "PENDING", reason, 0, 0);
    }
  }
}
