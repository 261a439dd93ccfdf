package dev.clearway.core.flow.port;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.ReviewState;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.lease.LeasedRows;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Persistence of flows. Every read is from the primary. Every state write is a compare-and-set on
 * (id, status, version) and returns false when 0 rows were updated: someone else moved the row.
 * Every write of a worker is also fenced by its lease: it applies only while {@code lease_owner} is
 * still the writer's own token ({@code holder}), so a worker whose lease expired and was taken
 * over, or released by a person's command, changes nothing. Only commands (a cancel through the
 * API, a person's approved command) write without a lease; they bump the version instead, which
 * fences every worker that read the row before them.
 */
public interface FlowStore extends LeasedRows<PayFlow> {

  /**
   * Creates the next attempt of a goal, or returns the goal's live attempt if one exists. The row
   * is inserted, then its order numbers are derived from its id and written; the new row is held by
   * {@code lease} so that the creating caller can advance it at once.
   */
  CreateResult createAttempt(NewPayment payment, Lease lease, Instant now);

  /**
   * {@link #createAttempt}, for a payment the caller has decided to start now (its deadline is
   * ahead): a new attempt is returned already moved to PAYING under {@code lease}, with the history
   * of its creation and of {@code WAIT_PAY -> PAYING}, and no charge sent yet. A store that writes
   * both in one commit overrides this; here they are two. An existing attempt is returned as {@link
   * #createAttempt} returns it.
   */
  default CreateResult createStarted(NewPayment payment, Lease lease, Instant now) {
    CreateResult created = createAttempt(payment, lease, now);
    if (!created.created()) {
      return created;
    }
    HistoryNote note = new HistoryNote(TriggerSource.SYNC, null, "START_PAY", 0);
    TransitionWrite start =
        new TransitionWrite(
            created.flow(),
            FlowStatus.PAYING,
            null,
            lease.until(),
            lease.token(),
            note,
            now,
            lease.token());
    return transition(start).map(paying -> new CreateResult(paying, true)).orElse(created);
  }

  /**
   * Whether {@link #createClaiming} is supported: the key's claim and the attempt in one commit.
   */
  default boolean claimsKeysAtCreation() {
    return false;
  }

  /**
   * {@link #createStarted} (or {@link #createAttempt} when not {@code started}), with the claim of
   * {@code key} bound to the attempt answered written in the same commit: both or neither.
   *
   * @throws KeyTakenException when another request holds the key; nothing is written then
   * @throws UnsupportedOperationException where {@link #claimsKeysAtCreation} is false
   */
  default CreateResult createClaiming(
      NewPayment payment, Lease lease, Instant now, boolean started, KeyClaim key) {
    throw new UnsupportedOperationException("this store claims keys apart from creation");
  }

  @Override
  Optional<PayFlow> find(long flowId);

  List<PayFlow> findByGoal(GoalKey goal);

  /** The flow of a trade order number. */
  Optional<PayFlow> findByOrderNo(String tradeOrderNo);

  /** One page of a merchant's attempts with a business key, newest first. */
  List<PayFlow> findByBizKey(BizKeyPage page);

  /**
   * Writes the derived numbers if they are still missing (crash between insert and update). Not
   * fenced by a lease: the numbers are a pure function of the id, written only where none are, and
   * the database never lets them change, so every writer writes the same value or nothing.
   */
  void assignOrderNumbers(long flowId, OrderNumbers numbers, Instant now);

  /** Takes the lease of one due or unleased non-terminal, non-frozen flow. */
  @Override
  boolean claim(long flowId, Lease lease, Instant now);

  /**
   * Claims up to {@code limit} due flows with id greater than {@code afterId}, in id order, and
   * returns their ids ascending.
   */
  List<Long> claimDue(long afterId, int limit, Lease lease, Instant now);

  /**
   * {@link #claimDue}, returning the claimed rows ascending by id as the claim wrote them: the
   * primary's state, held by {@code lease}, so the scanner's workers start from them without a
   * second read. A store that cannot return them from its claim reads each one after it.
   */
  default List<PayFlow> claimDueRows(long afterId, int limit, Lease lease, Instant now) {
    return claimDue(afterId, limit, lease, now).stream()
        .map(this::find)
        .flatMap(Optional::stream)
        .toList();
  }

  /**
   * CAS transition and its history row, in one transaction. Returns the row as written (from the
   * primary, in the same statement), or empty when 0 rows were updated: the row moved, or the
   * writer ({@link TransitionWrite#holder()}) no longer holds its lease.
   */
  Optional<PayFlow> transition(TransitionWrite write);

  /**
   * Transitions of distinct flows, each the CAS of {@link #transition} fenced by its writer's lease
   * and with its own history row and outbox event; the results in the writes' order, each the row
   * as written or empty when that write changed nothing (its row moved, or its lease was lost)
   * while the others commit. Here they are written one at a time; a store that can write them in
   * one statement and one commit overrides this.
   */
  default List<Optional<PayFlow>> transitions(List<TransitionWrite> writes) {
    if (writes.stream().map(w -> w.from().id()).distinct().count() != writes.size()) {
      throw new IllegalArgumentException("the transitions of one call move distinct flows");
    }
    return writes.stream().map(this::transition).toList();
  }

  /**
   * Keeps the status, sets the next retry time and releases the lease; CAS on status, version and
   * {@code lease_owner = holder} (a writer whose lease was taken over gets false).
   */
  boolean reschedule(RescheduleWrite write);

  /**
   * Records a cancel request on a flow still in PAYING (false otherwise, or if already recorded)
   * and makes it due at once unless a worker holds it. It changes no status: the advancer closes
   * the order at the wallet, or refunds a charge that landed anyway.
   */
  boolean requestCancel(long flowId, Instant now);

  /**
   * Stops automatic processing of a flow (contradictory facts, a person must decide) and releases
   * the lease; fenced like every worker write: false, and nothing written, unless {@code holder} is
   * still the flow's lease owner.
   */
  boolean freeze(long flowId, String holder, String reason, Instant now);

  /**
   * A page of {@link #findByBizKey}: the merchant's rows with this business key (optionally one
   * user and one scene) whose id is below {@code beforeId}, at most {@code limit}, newest first.
   */
  record BizKeyPage(
      String merchant, String bizKey, Long userId, String scene, long beforeId, int limit) {
    public BizKeyPage {
      if (limit < 1) {
        throw new IllegalArgumentException("a page holds at least one row");
      }
    }
  }

  /** A lease token and its expiry; the expiry doubles as next_retry_time while it is held. */
  record Lease(String token, Instant until) {}

  record CreateResult(PayFlow flow, boolean created) {}

  record HistoryNote(
      TriggerSource trigger, String requestId, String resultClass, long elapsedMillis) {}

  /**
   * One CAS transition.
   *
   * @param leaseToken the flow's {@code lease_owner} after the write: the writer's token to keep
   *     holding the flow, or null to release it
   * @param holder the token of the lease the writer holds: the write applies only while the row's
   *     {@code lease_owner} is still this token. Null only for a command that holds no lease (a
   *     cancel through the API), fenced by the version alone; see {@link #command}
   */
  record TransitionWrite(
      PayFlow from,
      FlowStatus to,
      String errorCode,
      Instant nextRetryTime,
      String leaseToken,
      HistoryNote note,
      Instant now,
      String holder) {

    /**
     * A transition by a command that holds no lease: it releases the lease and bumps the version,
     * so a worker that read the row before it cannot write after it.
     */
    public static TransitionWrite command(
        PayFlow from, FlowStatus to, String errorCode, HistoryNote note, Instant now) {
      return new TransitionWrite(from, to, errorCode, now, null, note, now, null);
    }
  }

  /**
   * One reschedule by the worker holding the lease {@code holder}; it releases that lease.
   *
   * @param holder the token of the lease the writer holds (never null: only workers reschedule)
   */
  record RescheduleWrite(
      PayFlow from,
      int retryCount,
      Instant nextRetryTime,
      String errorCode,
      ReviewState reviewState,
      String reviewReason,
      Instant now,
      String holder) {

    public RescheduleWrite {
      java.util.Objects.requireNonNull(holder, "a reschedule is written under the writer's lease");
    }
  }
}
