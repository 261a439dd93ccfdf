package dev.clearway.core.latecharge.port;

import dev.clearway.core.flow.port.FlowStore.Lease;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The sweep's only memory: per stage, the last ended order it has queried, stored in the database
 * and held by a lease while one sweeper works on the stage. A sweeper that dies leaves the lease to
 * expire; the next one continues from the stored cursor.
 */
public interface SweepStore {

  /** Position in the order in which flows ended: (ended at, flow id). */
  record Cursor(Instant endedAt, long flowId) {}

  /** A flow that ended without payment (PAY_FAIL or CLOSED). */
  record EndedFlow(long flowId, String tradeOrderNo, long amount, Instant endedAt) {}

  /**
   * Takes the lease of the stage (creating its row at {@code initial} if it has none) and returns
   * its cursor; empty when another sweeper holds a lease that has not expired.
   */
  Optional<Cursor> claimStage(Duration stage, Cursor initial, Lease lease, Instant now);

  /**
   * Flows that ended without payment after {@code after} and at or before {@code upTo}, in the
   * order they ended (then by id), at most {@code limit}.
   */
  List<EndedFlow> endedFlows(Cursor after, Instant upTo, int limit);

  /** How many flows ended without payment after {@code after} and before {@code upTo}. */
  long countEnded(Cursor after, Instant upTo);

  /**
   * Moves the stage's cursor forward to {@code to} and extends the lease to {@code leaseUntil};
   * fenced by the lease. False when the lease was taken over (nothing changed).
   */
  boolean advance(Duration stage, Cursor to, String token, Instant leaseUntil, Instant now);

  /** Releases the stage's lease if {@code token} still holds it. */
  void release(Duration stage, String token);
}
