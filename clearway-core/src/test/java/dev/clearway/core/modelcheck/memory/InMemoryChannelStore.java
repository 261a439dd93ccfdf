package dev.clearway.core.modelcheck.memory;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.domain.PaymentOrder;
import dev.clearway.core.channel.domain.ProviderEvidence;
import dev.clearway.core.channel.domain.RecoveryTask;
import dev.clearway.core.channel.domain.RecoveryTask.TaskStatus;
import dev.clearway.core.channel.port.AttemptStore;
import dev.clearway.core.channel.port.ChannelAccountStore;
import dev.clearway.core.channel.port.ChannelRefundStore;
import dev.clearway.core.channel.port.CompensationStore;
import dev.clearway.core.channel.port.EvidenceStore;
import dev.clearway.core.channel.port.PaymentOrderStore;
import dev.clearway.core.channel.port.RecoveryTaskStore;
import dev.clearway.core.channel.port.WebhookInbox;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.ResultCertainty;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The part of the channel stores that attempts and recovery tasks use, in memory, with the
 * semantics of {@code JdbcAttemptStore} and {@code JdbcRecoveryTaskStore}: one order, one attempt
 * and its task. The record of an observation by a holder of the task's lease applies only while the
 * task is LEASED to that token ({@link RecordResult#LEASE_LOST} otherwise, nothing written), then
 * compare-and-sets the attempt's (id, version, status); an observer's record (no lease) goes by the
 * compare-and-set alone and changes the open task whoever holds it. What the model does not use
 * (creation of attempts, closes, refunds, compensations' progress) is refused.
 */
public final class InMemoryChannelStore
    implements ChannelAccountStore,
        PaymentOrderStore,
        AttemptStore,
        RecoveryTaskStore,
        EvidenceStore,
        CompensationStore,
        ChannelRefundStore,
        WebhookInbox {
  private static final int CODE_MAX = 64;

  /** A webhook event's claim in the inbox: when it was (last) claimed, and whether it is done. */
  public record DeliveryClaim(Instant receivedAt, boolean done) {}

  /**
   * The rows as a value: the order, the attempt, its task, the compensations opened, how many times
   * the attempt was made final, and the webhook inbox.
   */
  public record Snapshot(
      ChannelAccount account,
      PaymentOrder order,
      Attempt attempt,
      RecoveryTask task,
      int compensations,
      int finalisations,
      Map<String, DeliveryClaim> deliveries) {}

  private final Fencing fencing;
  private final ChannelAccount account;
  private final PaymentOrder order;
  private Attempt attempt;
  private RecoveryTask task;
  private int compensations;
  private int finalisations;
  private final Map<String, DeliveryClaim> deliveries;
  private String writer = "?";
  private final List<Write> writes = new ArrayList<>();

  public InMemoryChannelStore(Fencing fencing, Snapshot s) {
    this.fencing = fencing;
    this.account = s.account();
    this.order = s.order();
    this.attempt = s.attempt();
    this.task = s.task();
    this.compensations = s.compensations();
    this.finalisations = s.finalisations();
    this.deliveries = new HashMap<>(s.deliveries());
  }

  public Snapshot snapshot() {
    return new Snapshot(
        account, order, attempt, task, compensations, finalisations, Map.copyOf(deliveries));
  }

  public void actingAs(String writerId) {
    this.writer = writerId;
  }

  public List<Write> writes() {
    return List.copyOf(writes);
  }

  @Override
  public List<ChannelAccount> accounts() {
    return List.of(account);
  }

  @Override
  public void upsertAccount(ChannelAccount account) {
    throw new UnsupportedOperationException("upsertAccount");
  }

  @Override
  public Optional<PaymentOrder> order(String tradeOrderNo) {
    return order.tradeOrderNo().equals(tradeOrderNo) ? Optional.of(order) : Optional.empty();
  }

  @Override
  public List<Attempt> attempts(String tradeOrderNo) {
    return attempt.tradeOrderNo().equals(tradeOrderNo) ? List.of(attempt) : List.of();
  }

  @Override
  public Optional<Attempt> attempt(long attemptId) {
    return attempt.id() == attemptId ? Optional.of(attempt) : Optional.empty();
  }

  @Override
  public Optional<Attempt> attemptByKey(String key) {
    return attempt.providerIdempotencyKey().equals(key) ? Optional.of(attempt) : Optional.empty();
  }

  /**
   * The one transaction of an observation: the lease check of a holder, the attempt's CAS, then the
   * task change (a holder's applies to its own LEASED task, an observer's to the open task). The
   * old SQL had no lease check and changed the open task whoever held it.
   */
  @Override
  public RecordResult record(AttemptChange change, Instant now) {
    Attempt from = change.expected();
    String holder = fencing == Fencing.LEASE ? WriterTokens.of(change) : null;
    if (holder != null && !heldBy(from.id(), holder)) {
      return RecordResult.LEASE_LOST;
    }
    if (from.id() != attempt.id()
        || from.version() != attempt.version()
        || from.status() != attempt.status()) {
      return RecordResult.LOST;
    }
    Attempt before = attempt;
    attempt = recorded(attempt, change);
    if (change.to().isFinal() && !from.status().isFinal()) {
      finalisations++;
    }
    String owner = taskOwner();
    applyTaskChange(change.task(), now);
    writes.add(new Write(writer, "record", owner, before, attempt));
    return RecordResult.RECORDED;
  }

  private static Attempt recorded(Attempt a, AttemptChange change) {
    PspOutcome outcome = change.evidence().outcome();
    AttemptStatus to = change.to();
    ResultCertainty certainty =
        switch (to) {
          case SUCCEEDED, FAILED -> outcome.certainty();
          case PENDING -> ResultCertainty.PENDING;
          case CREATED, UNKNOWN -> ResultCertainty.UNKNOWN;
        };
    return new Attempt(
        a.id(),
        a.tradeOrderNo(),
        a.seq(),
        a.channelAccountId(),
        a.origin(),
        a.previousAttemptId(),
        a.providerIdempotencyKey(),
        a.createRequestHash(),
        a.providerPaymentId() != null ? a.providerPaymentId() : outcome.providerPaymentId(),
        to,
        certainty,
        cut(outcome.errorCode()),
        to == AttemptStatus.FAILED && outcome.failoverEligible(),
        outcome.customerActionPending(),
        a.money(),
        a.replayCount() + (change.replayed() ? 1 : 0),
        a.version() + 1,
        a.createdAt());
  }

  /** Applies to the open task: a holder's is LEASED to it (checked in the same transaction). */
  private void applyTaskChange(TaskChange change, Instant now) {
    if (task == null || !open(task)) {
      return; // 0 rows is fine for an observer: the attempt's CAS is the authority
    }
    RecoveryTask t = task;
    if (change instanceof TaskChange.Resolve) {
      task = task(t, TaskStatus.RESOLVED, t.strategy(), t.dueAt(), null, null);
    } else if (change instanceof TaskChange.Reschedule r) {
      task = task(t, TaskStatus.READY, r.strategy(), r.dueAt(), null, null);
    } else if (change instanceof TaskChange.Manual) {
      task = task(t, TaskStatus.MANUAL, t.strategy(), t.dueAt(), null, null);
    }
  }

  @Override
  public void appendEvidence(long attemptId, Long taskId, ProviderEvidence evidence) {
    // evidence rows are appended and never read back by the engine: nothing to keep
  }

  /** READY and due, or LEASED with an expired lease; lease set, attempt_count + 1, version + 1. */
  @Override
  public List<RecoveryTask> claimDue(String owner, int limit, Duration lease, Instant now) {
    if (task == null || limit < 1 || !due(task, now)) {
      return List.of();
    }
    RecoveryTask t = task;
    task =
        new RecoveryTask(
            t.id(),
            t.attemptId(),
            t.channelAccountId(),
            TaskStatus.LEASED,
            t.strategy(),
            t.dueAt(),
            t.attemptCount() + 1,
            owner,
            now.plus(lease),
            t.policyVersion(),
            t.version() + 1);
    return List.of(task);
  }

  @Override
  public Optional<RecoveryTask> claimTask(
      long attemptId, String owner, Duration lease, Instant now) {
    boolean mine = task != null && task.attemptId() == attemptId;
    return mine ? claimDue(owner, 1, lease, now).stream().findFirst() : Optional.empty();
  }

  /** Whether {@link #claimDue} would take the task at {@code now}. */
  public static boolean due(RecoveryTask t, Instant now) {
    return (t.status() == TaskStatus.READY && !t.dueAt().isAfter(now))
        || (t.status() == TaskStatus.LEASED && t.leaseUntil().isBefore(now));
  }

  /** READY (due or not) or LEASED with an expired lease: LEASED to {@code holder}, version + 1. */
  @Override
  public boolean holdTask(long attemptId, String holder, Instant until, Instant now) {
    if (task == null
        || task.attemptId() != attemptId
        || !(task.status() == TaskStatus.READY
            || (task.status() == TaskStatus.LEASED && task.leaseUntil().isBefore(now)))) {
      return false;
    }
    task = task(task, TaskStatus.LEASED, task.strategy(), task.dueAt(), holder, until);
    return true;
  }

  /** Not fenced (in the SQL either): an open task of an attempt already final is resolved. */
  @Override
  public void resolveTask(long attemptId, Instant now) {
    if (task == null || task.attemptId() != attemptId || !open(task)) {
      return;
    }
    RecoveryTask before = task;
    task = task(task, TaskStatus.RESOLVED, task.strategy(), task.dueAt(), null, null);
    writes.add(new Write(writer, "resolveTask", owner(before), before, task));
  }

  @Override
  public void wakeTask(long attemptId, Instant now) {
    if (task != null && task.status() == TaskStatus.READY && task.dueAt().isAfter(now)) {
      task = task(task, TaskStatus.READY, task.strategy(), now, null, null);
    }
  }

  @Override
  public boolean openCompensation(Compensation compensation, Instant now) {
    if (compensations > 0) {
      return false;
    }
    compensations++;
    return true;
  }

  /** CAS on the task's id, version and LEASED (a claim or a hold bumped the version). */
  @Override
  public boolean rescheduleTask(
      RecoveryTask claimed, Instant dueAt, String strategy, String lastError, Instant now) {
    if (task == null
        || task.id() != claimed.id()
        || task.version() != claimed.version()
        || task.status() != TaskStatus.LEASED) {
      return false;
    }
    RecoveryTask before = task;
    task = task(task, TaskStatus.READY, strategy, dueAt, null, null);
    writes.add(new Write(writer, "rescheduleTask", owner(before), before, task));
    return true;
  }

  /** Inserts the claim, or takes over an unfinished one received before {@code staleBefore}. */
  @Override
  public boolean claimDelivery(Delivery delivery, Instant now, Instant staleBefore) {
    String key = key(delivery);
    DeliveryClaim known = deliveries.get(key);
    if (known != null && (known.done() || !known.receivedAt().isBefore(staleBefore))) {
      return false;
    }
    deliveries.put(key, new DeliveryClaim(now, false));
    return true;
  }

  @Override
  public void finishDelivery(Delivery delivery, Instant now) {
    deliveries.computeIfPresent(key(delivery), (k, c) -> new DeliveryClaim(c.receivedAt(), true));
  }

  @Override
  public void releaseDelivery(Delivery delivery) {
    DeliveryClaim known = deliveries.get(key(delivery));
    if (known != null && !known.done()) {
      deliveries.remove(key(delivery));
    }
  }

  private static String key(Delivery d) {
    return d.channelAccountId() + "/" + d.eventId();
  }

  // ---- not used by the attempt and recovery machine ------------------------------------------

  @Override
  public PaymentOrder openOrder(PaymentOrder o, Instant now) {
    throw new UnsupportedOperationException("openOrder");
  }

  @Override
  public Optional<Attempt> insertAttempt(NewAttempt a, NewTask t, Instant now) {
    throw new UnsupportedOperationException("insertAttempt");
  }

  @Override
  public boolean closeOrder(String tradeOrderNo, String reason, Instant now) {
    throw new UnsupportedOperationException("closeOrder");
  }

  @Override
  public Optional<Instant> oldestOpenTask() {
    return Optional.empty();
  }

  @Override
  public long openTasks() {
    return task != null && open(task) ? 1 : 0;
  }

  @Override
  public List<Compensation> claimCompensations(int limit, Duration lease, Instant now) {
    throw new UnsupportedOperationException("claimCompensations");
  }

  @Override
  public boolean updateCompensation(
      Compensation c, String status, String error, Instant due, Instant now) {
    throw new UnsupportedOperationException("updateCompensation");
  }

  @Override
  public ChannelRefund channelRefund(String refundNo, long attemptId, long amount, Instant now) {
    throw new UnsupportedOperationException("channelRefund");
  }

  @Override
  public Optional<ChannelRefund> findChannelRefund(String refundOrderNo) {
    throw new UnsupportedOperationException("findChannelRefund");
  }

  @Override
  public boolean nextRefundGeneration(ChannelRefund expected, Instant now) {
    throw new UnsupportedOperationException("nextRefundGeneration");
  }

  // ---- plumbing -------------------------------------------------------------------------------

  private static boolean open(RecoveryTask t) {
    return t.status() == TaskStatus.READY || t.status() == TaskStatus.LEASED;
  }

  /** {@code status = 'LEASED' AND lease_owner = token} for the attempt's task. */
  private boolean heldBy(long attemptId, String token) {
    return task != null
        && task.attemptId() == attemptId
        && task.status() == TaskStatus.LEASED
        && token.equals(task.leaseOwner());
  }

  private String taskOwner() {
    return task == null ? null : owner(task);
  }

  private static String owner(RecoveryTask t) {
    return t.status() == TaskStatus.LEASED ? t.leaseOwner() : null;
  }

  private static RecoveryTask task(
      RecoveryTask t,
      TaskStatus status,
      String strategy,
      Instant due,
      String owner,
      Instant until) {
    return new RecoveryTask(
        t.id(),
        t.attemptId(),
        t.channelAccountId(),
        status,
        strategy,
        due,
        t.attemptCount(),
        owner,
        until,
        t.policyVersion(),
        t.version() + 1);
  }

  private static String cut(String code) {
    return code == null || code.length() <= CODE_MAX ? code : code.substring(0, CODE_MAX);
  }
}
