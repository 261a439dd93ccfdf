package dev.clearway.core.modelcheck.memory;

import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.refund.domain.NewRefund;
import dev.clearway.core.refund.domain.RefundNumbers;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refund.domain.RefundTransitions;
import dev.clearway.core.refund.port.RefundStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.LongFunction;

/**
 * {@link RefundStore} in memory with the semantics of the SQL of {@code JdbcRefundStore}. The
 * parent flows are read through {@code flows} (the flow lock of the SQL is moot: one thread).
 */
public final class InMemoryRefundStore implements RefundStore {
  private static final int ERROR_CODE_MAX = 64;

  /** A row with the columns the record does not carry: its idempotency key and request hash. */
  public record Stored(RefundOrder row, String idemKey, String requestHash) {}

  /** The rows and the id sequence: a value, part of a model state. */
  public record Snapshot(Map<Long, Stored> rows, long lastId) {
    public static Snapshot empty() {
      return new Snapshot(Map.of(), 0);
    }
  }

  private final Fencing fencing;
  private final LongFunction<Optional<PayFlow>> flows;
  private final TreeMap<Long, Stored> rows;
  private long lastId;
  private String writer = "?";
  private final List<Write> writes = new ArrayList<>();

  public InMemoryRefundStore(
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

  public void setLastId(long id) {
    this.lastId = id;
  }

  /** createInTransaction: key, flow, kind, amount held, then the PENDING row under the lease. */
  @Override
  public CreateOutcome create(NewRefund request, Lease lease, Instant now) {
    String hash = request.requestHash();
    Optional<CreateOutcome> known = byKey(request, hash);
    if (known.isPresent()) {
      return known.get();
    }
    PayFlow flow = flows.apply(request.flowId()).orElse(null);
    if (flow == null) {
      return new CreateOutcome.FlowNotFound();
    }
    String merchant = flow.goal().merchant();
    if (request.kind().requestedByOwner() && !merchant.equals(request.requestedBy())) {
      return new CreateOutcome.FlowNotFound(); // another merchant's payment does not exist
    }
    if (!request.kind().allows(flow.status()) || flow.tradeOrderNo() == null) {
      return new CreateOutcome.NotAllowed(flow.status());
    }
    List<RefundOrder> siblings = findByFlow(request.flowId(), 0, Integer.MAX_VALUE);
    long held =
        siblings.stream()
            .filter(r -> r.status() != RefundStatus.FAIL && r.status() != RefundStatus.CLOSED)
            .mapToLong(RefundOrder::amount)
            .sum();
    int seq = siblings.stream().mapToInt(RefundOrder::seq).max().orElse(0) + 1;
    if (request.amount() > flow.amount() - held) {
      return new CreateOutcome.ExceedsPayment(flow.amount(), held);
    }
    RefundOrder created =
        new RefundOrder(
            ++lastId,
            request.flowId(),
            merchant,
            seq,
            flow.tradeOrderNo(),
            RefundNumbers.of(flow.tradeOrderNo(), seq),
            request.amount(),
            flow.currency(),
            request.reason(),
            request.requestedBy(),
            RefundStatus.PENDING,
            0,
            lease.until(),
            0,
            null,
            lease.token(),
            now,
            now);
    put(null, new Stored(created, request.idempotencyKey(), hash), "create");
    return new CreateOutcome.Created(created);
  }

  private Optional<CreateOutcome> byKey(NewRefund request, String hash) {
    return rows.values().stream()
        .filter(s -> s.row().requestedBy().equals(request.requestedBy()))
        .filter(s -> s.idemKey().equals(request.idempotencyKey()))
        .findFirst()
        .map(
            s ->
                hash.equals(s.requestHash())
                    ? new CreateOutcome.Replayed(s.row())
                    : new CreateOutcome.KeyReused());
  }

  @Override
  public Optional<RefundOrder> find(long refundId) {
    return Optional.ofNullable(rows.get(refundId)).map(Stored::row);
  }

  @Override
  public List<RefundOrder> findByFlow(long flowId, int afterSeq, int limit) {
    return rows.values().stream()
        .map(Stored::row)
        .filter(r -> r.flowId() == flowId && r.seq() > afterSeq)
        .sorted(Comparator.comparingInt(RefundOrder::seq))
        .limit(limit)
        .toList();
  }

  /** Whether {@link #claim} would take the row at {@code now}. */
  public static boolean claimable(RefundOrder r, Instant now) {
    return !r.isTerminal() && (r.leaseOwner() == null || !r.nextRetryTime().isAfter(now));
  }

  /** Whether {@link #claimDue} would take the row at {@code now}. */
  public static boolean due(RefundOrder r, Instant now) {
    return !r.isTerminal() && r.nextRetryTime() != null && !r.nextRetryTime().isAfter(now);
  }

  @Override
  public boolean claim(long refundId, Lease lease, Instant now) {
    Stored s = rows.get(refundId);
    if (s == null || !claimable(s.row(), now)) {
      return false;
    }
    rows.put(refundId, with(s, leased(s.row(), lease)));
    return true;
  }

  @Override
  public List<Long> claimDue(long afterId, int limit, Lease lease, Instant now) {
    List<Long> ids = new ArrayList<>();
    for (Stored s : rows.tailMap(afterId, false).values()) {
      if (ids.size() == limit) {
        break;
      }
      if (due(s.row(), now)) {
        rows.put(s.row().id(), with(s, leased(s.row(), lease)));
        ids.add(s.row().id());
      }
    }
    return List.copyOf(ids);
  }

  /**
   * The transition CTE: CAS on id, status, version and {@code lease_owner = holder} (the old SQL:
   * id, status and version only).
   */
  @Override
  public Optional<RefundOrder> transition(TransitionWrite w) {
    RefundOrder from = w.from();
    RefundTransitions.requireLegal(from.status(), w.to());
    Stored s = rows.get(from.id());
    if (s == null
        || s.row().status() != from.status()
        || s.row().version() != from.version()
        || (fencing == Fencing.LEASE && !held(s.row(), WriterTokens.of(w)))) {
      return Optional.empty();
    }
    RefundOrder r = s.row();
    RefundOrder moved =
        new RefundOrder(
            r.id(),
            r.flowId(),
            r.merchantId(),
            r.seq(),
            r.tradeOrderNo(),
            r.refundNo(),
            r.amount(),
            r.currency(),
            r.reason(),
            r.requestedBy(),
            w.to(),
            r.version() + 1,
            w.nextRetryTime(),
            0,
            cut(w.errorCode()),
            w.leaseToken(),
            r.createdAt(),
            w.now());
    put(s, with(s, moved), "transition " + from.status() + "->" + w.to());
    return Optional.of(moved);
  }

  /**
   * UPDATE ... lease_owner = NULL WHERE id, status, version and {@code lease_owner = holder} (the
   * old SQL: {@code lease_owner IS NOT DISTINCT FROM} the owner the row was read under).
   */
  @Override
  public boolean reschedule(RescheduleWrite w) {
    RefundOrder from = w.from();
    Stored s = rows.get(from.id());
    if (s == null
        || s.row().status() != from.status()
        || s.row().version() != from.version()
        || !(fencing == Fencing.LEASE
            ? held(s.row(), WriterTokens.of(w))
            : Objects.equals(s.row().leaseOwner(), from.leaseOwner()))) {
      return false;
    }
    RefundOrder r = s.row();
    RefundOrder next =
        new RefundOrder(
            r.id(),
            r.flowId(),
            r.merchantId(),
            r.seq(),
            r.tradeOrderNo(),
            r.refundNo(),
            r.amount(),
            r.currency(),
            r.reason(),
            r.requestedBy(),
            r.status(),
            r.version(),
            w.nextRetryTime(),
            w.retryCount(),
            cut(w.errorCode()),
            null,
            r.createdAt(),
            w.now());
    put(s, with(s, next), "reschedule");
    return true;
  }

  private static RefundOrder leased(RefundOrder r, Lease lease) {
    return new RefundOrder(
        r.id(),
        r.flowId(),
        r.merchantId(),
        r.seq(),
        r.tradeOrderNo(),
        r.refundNo(),
        r.amount(),
        r.currency(),
        r.reason(),
        r.requestedBy(),
        r.status(),
        r.version(),
        lease.until(),
        r.retryCount(),
        r.lastErrorCode(),
        lease.token(),
        r.createdAt(),
        r.updatedAt());
  }

  private static Stored with(Stored s, RefundOrder row) {
    return new Stored(row, s.idemKey(), s.requestHash());
  }

  private static String cut(String code) {
    return code == null || code.length() <= ERROR_CODE_MAX
        ? code
        : code.substring(0, ERROR_CODE_MAX);
  }

  /** {@code lease_owner = holder} as SQL compares it: NULL equals nothing. */
  private static boolean held(RefundOrder row, String holder) {
    return holder != null && holder.equals(row.leaseOwner());
  }

  private void put(Stored before, Stored after, String op) {
    rows.put(after.row().id(), after);
    RefundOrder old = before == null ? null : before.row();
    writes.add(new Write(writer, op, old == null ? null : old.leaseOwner(), old, after.row()));
  }
}
