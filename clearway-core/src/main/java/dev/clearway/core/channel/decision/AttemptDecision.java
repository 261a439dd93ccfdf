package dev.clearway.core.channel.decision;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.EvidenceSource;
import dev.clearway.core.channel.spi.PspOutcome;

/**
 * Provider evidence → the attempt's next status. Pure.
 *
 * <p>The one subtle case is {@code NO_SIDE_EFFECT}: it proves that <em>this</em> request did not
 * execute. It ends the attempt only when it answers the attempt's first create (nothing else was
 * ever sent). Answering a replay or a query it proves nothing about the original request, which may
 * still be in flight: the attempt stays UNKNOWN, marked {@link #NOT_FOUND_AT_PSP} when a query
 * found nothing, so the flow above can close the order before relying on it. The same holds for a
 * replay refused before it executed (a definite, failover-eligible failure such as "channel
 * unavailable" during an outage): the original order may exist and be payable at the PSP, so the
 * attempt keeps its status (PENDING stays PENDING, anything else is UNKNOWN).
 */
public final class AttemptDecision {

  /** Error code of an UNKNOWN attempt that a query did not find at the PSP. */
  public static final String NOT_FOUND_AT_PSP = "NOT_FOUND_AT_PSP";

  /** Error code of a success reported for another amount than the attempt's. */
  public static final String AMOUNT_MISMATCH = "AMOUNT_MISMATCH";

  private AttemptDecision() {}

  /**
   * Whether the PSP reports a success for another amount than the attempt asked for (the amount
   * must match). Such a success is not accepted: the evidence is kept, the attempt is not moved to
   * SUCCEEDED, and a person decides.
   */
  public static boolean amountContradicts(Attempt attempt, PspOutcome outcome) {
    return outcome.certainty() == dev.clearway.core.channel.spi.ResultCertainty.CONFIRMED_SUCCESS
        && outcome.amount() != null
        && outcome.amount() != attempt.money().amount();
  }

  /** What the attempt becomes; the same status means "record the evidence, keep waiting". */
  public static AttemptStatus next(
      Attempt current, PspOutcome outcome, EvidenceSource source, boolean firstCreate) {
    return switch (outcome.certainty()) {
      case CONFIRMED_SUCCESS -> AttemptStatus.SUCCEEDED;
      case DEFINITE_FAILURE ->
          refusedReplay(outcome, source, firstCreate) ? unchanged(current) : AttemptStatus.FAILED;
      case NO_SIDE_EFFECT ->
          firstCreate && source == EvidenceSource.RESPONSE
              ? AttemptStatus.FAILED
              : AttemptStatus.UNKNOWN;
      case PENDING -> AttemptStatus.PENDING;
      // An unanswered query does not erase what we knew: PENDING stays PENDING.
      case UNKNOWN ->
          current.status() == AttemptStatus.PENDING ? AttemptStatus.PENDING : AttemptStatus.UNKNOWN;
    };
  }

  /** A replay (a create that was not the first) refused before it executed. */
  private static boolean refusedReplay(
      PspOutcome outcome, EvidenceSource source, boolean firstCreate) {
    return !firstCreate && source == EvidenceSource.RESPONSE && outcome.failoverEligible();
  }

  private static AttemptStatus unchanged(Attempt current) {
    return current.status() == AttemptStatus.PENDING
        ? AttemptStatus.PENDING
        : AttemptStatus.UNKNOWN;
  }

  /**
   * The outcome as stored: a query's "not found" is recorded as UNKNOWN NOT_FOUND_AT_PSP. A replay
   * refused without effect keeps its own code: it says nothing about the PSP's records.
   */
  public static PspOutcome stored(PspOutcome outcome, AttemptStatus to, EvidenceSource source) {
    if (outcome.certainty() == dev.clearway.core.channel.spi.ResultCertainty.NO_SIDE_EFFECT
        && to == AttemptStatus.UNKNOWN
        && source == EvidenceSource.QUERY) {
      return outcome.withError(NOT_FOUND_AT_PSP).withoutCustomerAction().withAmount(null);
    }
    return outcome;
  }
}
