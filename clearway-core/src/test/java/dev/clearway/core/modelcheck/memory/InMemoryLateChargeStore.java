package dev.clearway.core.modelcheck.memory;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.latecharge.domain.LateChargeCheck;
import dev.clearway.core.latecharge.domain.LateChargeStatus;
import dev.clearway.core.latecharge.domain.LateChargeTransitions;
import dev.clearway.core.latecharge.domain.SuspicionSource;
import dev.clearway.core.latecharge.port.LateChargeStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.LongFunction;

/**
 * {@link LateChargeStore} in memory with the semantics of the SQL of {@code JdbcLateChargeStore}:
 * one check per flow, inserted only for a flow that ended unpaid; transitions and reschedules are a
 * compare-and-set on (id, status, version) fenced by {@code lease_owner = writerToken} ({@link
 * Fencing#NONE}: by (id, status, version) only, to show what the fence is for).
 */
public final class InMemoryLateChargeStore implements LateChargeStore {
  private static final int CODE_MAX = 64;
  private static final int RESULT_MAX = 32;

  /** The rows and the id sequence: a value, part of a model state. */
  public record Snapshot(Map<Long, LateChargeCheck> rows, long lastId) {
    public static Snapshot empty() {
      return new Snapshot(Map.of(), 0);
    }
  }

  private final Fencing fencing;
  private final LongFunction<Optional<PayFlow>> flows;
  private final TreeMap<Long, LateChargeCheck> rows;
  private long lastId;
  private String writer = "?";
  private final List<Write> writes = new ArrayList<>();

  public InMemoryLateChargeStore(
      Fencing fencing, Snapshot snapshot, LongFunction<Optional<PayFlow>> flows) {
    this.fencing = fencing;
    this.flows = flows;
    this.rows = new TreeMap<>(snapshot.rows());
    this.lastId = snapshot.lastId();
  }

  public Snapshot snapshot() {
    return new Snapshot(Map.copyOf(rows), lastId);
  }

  public void actingAs(String writerId) {
    this.writer = writerId;
  }

  public List<Write> writes() {
    return List.copyOf(writes);
  }

  /**
   * INSERT ... SELECT FROM pay_flow WHERE PAY_FAIL or CLOSED ... ON CONFLICT (flow_id) DO NOTHING.
   */
  @Override
  public Optional<Suspected> suspect(long flowId, SuspicionSource source, Instant now) {
    Optional<LateChargeCheck> known = findByFlow(flowId);
    if (known.isPresent()) {
      return known.map(c -> new Suspected(c, false));
    }
    PayFlow flow = flows.apply(flowId).orElse(null);
    if (flow == null
        || !(flow.status() == FlowStatus.PAY_FAIL || flow.status() == FlowStatus.CLOSED)
        || flow.tradeOrderNo() == null) {
      return Optional.empty();
    }
    LateChargeCheck created =
        new LateChargeCheck(
            ++lastId,
            flowId,
            flow.tradeOrderNo(),
            source,
            LateChargeStatus.PENDING,
            0,
            now,
            0,
            null,
            null,
            null,
            null,
            now,
            now);
    put(null, created, "suspect");
    return Optional.of(new Suspected(created, true));
  }

  @Override
  public Optional<LateChargeCheck> find(long checkId) {
    return Optional.ofNullable(rows.get(checkId));
  }

  @Override
  public Optional<LateChargeCheck> findByFlow(long flowId) {
    return rows.values().stream().filter(c -> c.flowId() == flowId).findFirst();
  }

  /** Whether {@link #claim} would take the row at {@code now}. */
  public static boolean claimable(LateChargeCheck c, Instant now) {
    return !c.isTerminal() && (c.leaseOwner() == null || !c.nextCheckTime().isAfter(now));
  }

  /** Whether {@link #claimDue} would take the row at {@code now}. */
  public static boolean due(LateChargeCheck c, Instant now) {
    return !c.isTerminal() && !c.nextCheckTime().isAfter(now);
  }

  @Override
  public boolean claim(long checkId, Lease lease, Instant now) {
    LateChargeCheck c = rows.get(checkId);
    if (c == null || !claimable(c, now)) {
      return false;
    }
    rows.put(checkId, leased(c, lease.token(), lease.until()));
    return true;
  }

  @Override
  public List<Long> claimDue(long afterId, int limit, Lease lease, Instant now) {
    List<Long> ids = new ArrayList<>();
    for (LateChargeCheck c : rows.tailMap(afterId, false).values()) {
      if (ids.size() == limit) {
        break;
      }
      if (due(c, now)) {
        rows.put(c.id(), leased(c, lease.token(), lease.until()));
        ids.add(c.id());
      }
    }
    return List.copyOf(ids);
  }

  /** UPDATE ... WHERE id, status, version AND lease_owner = writerToken RETURNING. */
  @Override
  public Optional<LateChargeCheck> transition(TransitionWrite w) {
    LateChargeCheck from = w.from();
    LateChargeTransitions.requireLegal(from.status(), w.to());
    LateChargeCheck c = rows.get(from.id());
    if (c == null
        || c.status() != from.status()
        || c.version() != from.version()
        || !held(c, w.writerToken())) {
      return Optional.empty();
    }
    LateChargeCheck moved =
        new LateChargeCheck(
            c.id(),
            c.flowId(),
            c.tradeOrderNo(),
            c.source(),
            w.to(),
            c.version() + 1,
            w.nextCheckTime(),
            0,
            cut(w.resultClass(), RESULT_MAX),
            cut(w.errorCode(), CODE_MAX),
            w.refundId() != null ? w.refundId() : c.refundId(),
            w.nextLeaseOwner(),
            c.createdAt(),
            w.now());
    put(c, moved, "transition " + from.status() + "->" + w.to());
    return Optional.of(moved);
  }

  /** UPDATE ... retry_count + 1, lease_owner = NULL WHERE id, status, version, lease_owner. */
  @Override
  public boolean reschedule(RescheduleWrite w) {
    LateChargeCheck from = w.from();
    LateChargeCheck c = rows.get(from.id());
    if (c == null
        || c.status() != from.status()
        || c.version() != from.version()
        || !held(c, w.writerToken())) {
      return false;
    }
    LateChargeCheck next =
        new LateChargeCheck(
            c.id(),
            c.flowId(),
            c.tradeOrderNo(),
            c.source(),
            c.status(),
            c.version(),
            w.nextCheckTime(),
            c.retryCount() + 1,
            cut(w.resultClass(), RESULT_MAX),
            cut(w.errorCode(), CODE_MAX),
            c.refundId(),
            null,
            c.createdAt(),
            w.now());
    put(c, next, "reschedule");
    return true;
  }

  /** {@code lease_owner = token} as SQL compares it (NULL equals nothing); not checked in NONE. */
  private boolean held(LateChargeCheck c, String token) {
    return fencing == Fencing.NONE || (token != null && token.equals(c.leaseOwner()));
  }

  private static LateChargeCheck leased(LateChargeCheck c, String owner, Instant until) {
    return new LateChargeCheck(
        c.id(),
        c.flowId(),
        c.tradeOrderNo(),
        c.source(),
        c.status(),
        c.version(),
        until,
        c.retryCount(),
        c.lastResult(),
        c.lastErrorCode(),
        c.refundId(),
        owner,
        c.createdAt(),
        c.updatedAt());
  }

  private static String cut(String s, int max) {
    return s == null || s.length() <= max ? s : s.substring(0, max);
  }

  private void put(LateChargeCheck before, LateChargeCheck after, String op) {
    rows.put(after.id(), after);
    writes.add(new Write(writer, op, before == null ? null : before.leaseOwner(), before, after));
  }
}
