package dev.clearway.core.reconciliation.port;

import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.DifferenceState;
import dev.clearway.core.reconciliation.domain.MatchConfidence;
import dev.clearway.core.reconciliation.domain.RecordedDifference;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;

/**
 * The differences found, each with the evidence of both sides and its state history. Recording is
 * idempotent on (account, class, identity); every move is a compare-and-set on (state, version)
 * that writes a history row in the same transaction, and returns false when 0 rows moved.
 */
public interface DifferenceStore {

  /** What a run found, ready to record. */
  record Found(
      long runId,
      LocalDate statementDay,
      Difference difference,
      MatchConfidence confidence,
      Long statementFileId,
      Long statementLineNo) {}

  /** Records a difference, or answers the one on record with the same identity. */
  Recorded record(Found found, Instant now);

  /** The recorded row and whether this call created it. */
  record Recorded(RecordedDifference difference, boolean created) {}

  Optional<RecordedDifference> find(long id);

  /**
   * Takes the lease of up to {@code limit} differences that are OPEN and actionable at {@code now},
   * or AUTO_REPAIRING with an expired lease, oldest first.
   */
  List<RecordedDifference> claimDue(String owner, Instant leaseUntil, Instant now, int limit);

  /**
   * Moves a difference from the state and version read to {@code next}, fenced by the lease owner
   * when {@code owner} is not null; the history row names the actor and the detail.
   */
  boolean move(Move move);

  /** One state move. {@code actor} is the node's lease token or a person's name. */
  record Move(
      long id,
      long version,
      DifferenceState from,
      DifferenceState next,
      String owner,
      String actor,
      String detail,
      Instant actionableAt,
      Instant at) {}
}
