package dev.clearway.core.modelcheck.memory;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.ReviewState;
import dev.clearway.core.flow.domain.Transitions;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.review.CommandKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@link FlowStore} in memory with the semantics of the SQL of {@code JdbcFlowStore} and {@code
 * PostgresDialect} (each method names the statement it stands for), plus the approved manual
 * command of {@code JdbcReviewStore}. One thread at a time: the model checker steps it.
 */
public final class InMemoryFlowStore implements FlowStore {
  private static final int REASON_MAX = 160;

  /** The rows and the id sequence: a value, part of a model state. */
  public record Snapshot(Map<Long, PayFlow> rows, long lastId) {
    public static Snapshot empty() {
      return new Snapshot(Map.of(), 0);
    }
  }

  private final Fencing fencing;
  private final TreeMap<Long, PayFlow> rows;
  private long lastId;
  private String writer = "?";
  private final List<Write> writes = new ArrayList<>();

  public InMemoryFlowStore(Fencing fencing, Snapshot snapshot) {
    this.fencing = fencing;
    this.rows = new TreeMap<>(snapshot.rows());
    this.lastId = snapshot.lastId();
  }

  public Snapshot snapshot() {
    return new Snapshot(Map.copyOf(rows), lastId);
  }

  /** Who the following writes are attributed to. */
  public void actingAs(String writerId) {
    this.writer = writerId;
  }

  /** The rows changed since this store was made, in order. */
  public List<Write> writes() {
    return List.copyOf(writes);
  }

  /** The id the next created row gets minus one (to mirror a database's sequence in tests). */
  public void setLastId(long id) {
    this.lastId = id;
  }

  // ---- creation: createInTransaction --------------------------------------------------------

  @Override
  public CreateResult createAttempt(NewPayment payment, Lease lease, Instant now) {
    GoalKey goal = payment.goal();
    int lastAttempt = 0;
    List<PayFlow> attempts = new ArrayList<>(findByGoal(goal));
    attempts.sort(Comparator.comparingInt(PayFlow::attemptNo).reversed());
    for (PayFlow existing : attempts) {
      lastAttempt = Math.max(lastAttempt, existing.attemptNo());
      if (!existing.status().isDefiniteFailure()) {
        return new CreateResult(existing, false);
      }
    }
    long id = ++lastId;
    OrderNumbers numbers = OrderNumbers.derive(goal.userId(), id);
    PayFlow created =
        new PayFlow(
            id,
            goal,
            lastAttempt + 1,
            numbers.tradeOrderNo(),
            numbers.refundOrderNo(),
            FlowStatus.WAIT_PAY,
            0,
            payment.amount(),
            payment.currency(),
            payment.bizDeadline(),
            lease.until(),
            0,
            null,
            ReviewState.NONE,
            null,
            lease.token(),
            now,
            now,
            null);
    put(null, created, "createAttempt");
    return new CreateResult(created, true);
  }

  // ---- reads ----------------------------------------------------------------------------------

  @Override
  public Optional<PayFlow> find(long flowId) {
    return Optional.ofNullable(rows.get(flowId));
  }

  @Override
  public List<PayFlow> findByGoal(GoalKey goal) {
    return rows.values().stream()
        .filter(f -> f.goal().equals(goal))
        .sorted(Comparator.comparingInt(PayFlow::attemptNo))
        .toList();
  }

  @Override
  public Optional<PayFlow> findByOrderNo(String tradeOrderNo) {
    return rows.values().stream()
        .filter(f -> Objects.equals(f.tradeOrderNo(), tradeOrderNo))
        .findFirst();
  }

  /** A page newest first: merchant and business key (user, scene if given), id below the cursor. */
  @Override
  public List<PayFlow> findByBizKey(BizKeyPage page) {
    return rows.descendingMap().values().stream()
        .filter(f -> f.id() < page.beforeId())
        .filter(f -> f.goal().merchant().equals(page.merchant()))
        .filter(f -> f.goal().bizKey().equals(page.bizKey()))
        .filter(f -> page.userId() == null || f.goal().userId() == page.userId())
        .filter(f -> page.scene() == null || f.goal().scene().equals(page.scene()))
        .limit(page.limit())
        .toList();
  }

  // ---- writes ---------------------------------------------------------------------------------

  /** UPDATE ... SET numbers, updated_at WHERE id = ? AND trade_order_no IS NULL. */
  @Override
  public void assignOrderNumbers(long flowId, OrderNumbers numbers, Instant now) {
    PayFlow row = rows.get(flowId);
    if (row == null || row.tradeOrderNo() != null) {
      return;
    }
    put(
        row,
        Rows.with(row)
            .numbers(numbers.tradeOrderNo(), numbers.refundOrderNo())
            .updatedAt(now)
            .row(),
        "assignOrderNumbers");
  }

  /** UPDATE SET lease_owner, next_retry_time WHERE non-terminal, not frozen, lease free/expired. */
  @Override
  public boolean claim(long flowId, Lease lease, Instant now) {
    PayFlow row = rows.get(flowId);
    if (row == null || !claimable(row, now)) {
      return false;
    }
    rows.put(flowId, Rows.with(row).lease(lease.token(), lease.until()).row());
    return true;
  }

  /** Whether {@link #claim} would take the row at {@code now}. */
  public static boolean claimable(PayFlow row, Instant now) {
    return !row.isTerminal()
        && !row.isFrozen()
        && (row.leaseOwner() == null || !row.nextRetryTime().isAfter(now));
  }

  /** Whether {@link #claimDue} would take the row at {@code now}. */
  public static boolean due(PayFlow row, Instant now) {
    return !row.isTerminal()
        && !row.isFrozen()
        && row.nextRetryTime() != null
        && !row.nextRetryTime().isAfter(now);
  }

  /** The claim-due CTE: due rows above the cursor, by id, limited; lease set on each. */
  @Override
  public List<Long> claimDue(long afterId, int limit, Lease lease, Instant now) {
    List<Long> ids = new ArrayList<>();
    for (PayFlow row : rows.tailMap(afterId, false).values()) {
      if (ids.size() == limit) {
        break;
      }
      if (due(row, now)) {
        rows.put(row.id(), Rows.with(row).lease(lease.token(), lease.until()).row());
        ids.add(row.id());
      }
    }
    return List.copyOf(ids);
  }

  /**
   * The transition CTE: CAS on id, status, version and not frozen; fenced, also {@code holder IS
   * NULL OR lease_owner = holder} (a command without a lease is fenced by the version alone).
   */
  @Override
  public Optional<PayFlow> transition(TransitionWrite w) {
    PayFlow from = w.from();
    Transitions.requireLegal(from.status(), w.to());
    PayFlow row = rows.get(from.id());
    if (row == null
        || row.status() != from.status()
        || row.version() != from.version()
        || row.isFrozen()
        || !transitionFence(row, WriterTokens.of(w))) {
      return Optional.empty();
    }
    boolean escalated = row.reviewState() == ReviewState.ESCALATED;
    PayFlow moved =
        Rows.with(row)
            .status(w.to(), row.version() + 1)
            .retry(0, w.nextRetryTime(), w.errorCode())
            .leaseOwner(w.leaseToken())
            .review(
                escalated ? ReviewState.NONE : row.reviewState(),
                escalated ? null : row.reviewReason())
            .updatedAt(w.now())
            .row();
    put(row, moved, "transition " + from.status() + "->" + w.to());
    return Optional.of(moved);
  }

  /**
   * UPDATE ... lease_owner = NULL WHERE id, status, version, not frozen and {@code lease_owner =
   * holder}; the old SQL compared the owner the row was read under instead of the writer's token.
   */
  @Override
  public boolean reschedule(RescheduleWrite w) {
    PayFlow from = w.from();
    PayFlow row = rows.get(from.id());
    String fence = fencing == Fencing.LEASE ? WriterTokens.of(w) : from.leaseOwner();
    if (row == null
        || row.status() != from.status()
        || row.version() != from.version()
        || row.isFrozen()
        || !sameOwner(row.leaseOwner(), fence, fencing == Fencing.NONE)) {
      return false;
    }
    PayFlow next =
        Rows.with(row)
            .retry(w.retryCount(), w.nextRetryTime(), w.errorCode())
            .review(w.reviewState(), w.reviewReason())
            .leaseOwner(null)
            .row();
    put(row, next, "reschedule");
    return true;
  }

  /** UPDATE ... cancel_requested_at WHERE status = 'PAYING' AND cancel_requested_at IS NULL. */
  @Override
  public boolean requestCancel(long flowId, Instant now) {
    PayFlow row = rows.get(flowId);
    if (row == null || row.status() != FlowStatus.PAYING || row.isCancelRequested()) {
      return false;
    }
    Instant next =
        row.leaseOwner() == null && row.nextRetryTime().isAfter(now) ? now : row.nextRetryTime();
    put(
        row,
        Rows.with(row).cancelRequested(now).updatedAt(now).retry(row.retryCount(), next).row(),
        "requestCancel");
    return true;
  }

  /**
   * UPDATE SET review_state = 'FROZEN', lease_owner = NULL WHERE id = ? AND lease_owner = holder;
   * the old SQL froze the row unconditionally.
   */
  @Override
  public boolean freeze(long flowId, String holder, String reason, Instant now) {
    PayFlow row = rows.get(flowId);
    if (row == null || (fencing == Fencing.LEASE && !sameOwner(row.leaseOwner(), holder, false))) {
      return false;
    }
    String cut =
        reason == null || reason.length() <= REASON_MAX ? reason : reason.substring(0, REASON_MAX);
    put(
        row,
        Rows.with(row).review(ReviewState.FROZEN, cut).leaseOwner(null).updatedAt(now).row(),
        "freeze");
    return true;
  }

  /**
   * An approved manual command ({@code JdbcReviewStore.approve}, {@code CommandEffect}): RESUME
   * clears the review mark and the lease and makes the flow due now; the others are a transition
   * with history. Every command bumps the version (the old SQL kept it for RESUME). False when the
   * command is refused or the row changed since the proposal.
   */
  public boolean approveCommand(CommandKind kind, PayFlow proposed, Instant now) {
    PayFlow row = rows.get(proposed.id());
    if (row == null || row.status() != proposed.status() || row.version() != proposed.version()) {
      return false;
    }
    CommandKind.Verdict verdict = kind.check(row);
    if (!verdict.isAllowed()) {
      return false;
    }
    FlowStatus to = verdict.target().orElseThrow();
    boolean resume = to == row.status();
    long version = resume && fencing == Fencing.NONE ? row.version() : row.version() + 1;
    PayFlow next =
        Rows.with(row)
            .status(to, version)
            .retry(0, now, resume ? row.lastErrorCode() : kind.name())
            .review(ReviewState.NONE, null)
            .leaseOwner(null)
            .updatedAt(now)
            .row();
    put(row, next, "manual " + kind);
    return true;
  }

  // ---- plumbing -------------------------------------------------------------------------------

  /** Fenced: {@code holder IS NULL OR lease_owner = holder}; the old SQL had no lease fence. */
  private boolean transitionFence(PayFlow row, String holder) {
    return switch (fencing) {
      case NONE -> true;
      case LEASE -> holder == null || sameOwner(row.leaseOwner(), holder, false);
    };
  }

  /**
   * {@code lease_owner = token} as SQL compares it: NULL equals nothing, unless {@code nullMatches}
   * (the old reschedule compared the owner read, which may be NULL, with IS NOT DISTINCT FROM).
   */
  private static boolean sameOwner(String owner, String token, boolean nullMatches) {
    if (owner == null || token == null) {
      return nullMatches && owner == null && token == null;
    }
    return owner.equals(token);
  }

  private void put(PayFlow before, PayFlow after, String op) {
    rows.put(after.id(), after);
    writes.add(new Write(writer, op, before == null ? null : before.leaseOwner(), before, after));
  }
}
