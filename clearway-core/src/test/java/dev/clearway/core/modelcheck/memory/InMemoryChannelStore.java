package dev.clearway.core.modelcheck.memory;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.domain.PaymentOrder;
import dev.clearway.core.channel.domain.ProviderEvidence;
import dev.clearway.core.channel.domain.RecoveryTask;
import dev.clearway.core.channel.domain.RecoveryTask.TaskStatus;
import dev.clearway.core.channel.port.ChannelStore;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.ResultCertainty;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The part of {@link ChannelStore} that attempts and recovery tasks use, in memory, with the
 * semantics of {@code JdbcChannelStore}: one order, one attempt and its task. The record of an
 * observation is a compare-and-set on the attempt's (id, version, status) and changes the task
 * whatever its owner; a task reschedule is a compare-and-set on the task's version. What the model
 * does not use (creation of attempts, closes, refunds, compensations' progress) is refused.
 */
public final class InMemoryChannelStore implements ChannelStore {
  private static final int CODE_MAX = 64;

  /**
   * The rows as a value: the order, the attempt, its task, the compensations opened, how many times
   * the attempt was made final, and the webhook event ids seen.
   */
  public record Snapshot(
      ChannelAccount account,
      PaymentOrder order,
      Attempt attempt,
      RecoveryTask task,
      int compensations,
      int finalisations,
      Set<String> deliveries) {}

  private final Fencing fencing;
  private final ChannelAccount account;
  private final PaymentOrder order;
  private Attempt attempt;
  private RecoveryTask task;
  private int compensations;
  private int finalisations;
  private final Set<String> deliveries;
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
    this.deliveries = new HashSet<>(s.deliveries());
  }

  public Snapshot snapshot() {
    return new Snapshot(
        account, order, attempt, task, compensations, finalisations, Set.copyOf(deliveries));
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

  /** The one transaction of an observation: attempt CAS, then the task change. */
  @Override
  public RecordResult record(AttemptChange change, Instant now) {
    Attempt from = change.expected();
    if (from.id() != attempt.id()
        || from.version() != attempt.version()
        || from.status() != attempt.status()
        || !leaseHolds(WriterTokens.of(change))) {
      return RecordResult.LOST;
    }
    PspOutcome outcome = change.evidence().outcome();
    AttemptStatus to = change.to();
    ResultCertainty certainty =
        switch (to) {
          case SUCCEEDED, FAILED -> outcome.certainty();
          case PENDING -> ResultCertainty.PENDING;
          case CREATED, UNKNOWN -> ResultCertainty.UNKNOWN;
        };
    Attempt before = attempt;
    Attempt a = attempt;
    attempt =
        new Attempt(
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
    if (to.isFinal() && !from.status().isFinal()) {
      finalisations++;
    }
    String owner = taskOwner();
    applyTaskChange(change.task(), now);
    writes.add(new Write(writer, "record", owner, before, attempt));
    return RecordResult.RECORDED;
  }

  private void applyTaskChange(TaskChange change, Instant now) {
    if (task == null || !open(task)) {
      return; // 0 rows is fine: the attempt's CAS is the authority
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

  /** Whether {@link #claimDue} would take the task at {@code now}. */
  public static boolean due(RecoveryTask t, Instant now) {
    return (t.status() == TaskStatus.READY && !t.dueAt().isAfter(now))
        || (t.status() == TaskStatus.LEASED && t.leaseUntil().isBefore(now));
  }

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

  /** CAS on the task's id, version and LEASED (the claim bumped the version). */
  @Override
  public boolean rescheduleTask(
      RecoveryTask claimed, Instant dueAt, String strategy, String lastError) {
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

  @Override
  public boolean firstDelivery(String channel, String eventId, Instant now) {
    return deliveries.add(channel + "/" + eventId);
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
  public List<Compensation> dueCompensations(int limit, Instant now) {
    throw new UnsupportedOperationException("dueCompensations");
  }

  @Override
  public boolean updateCompensation(Compensation c, String status, String error, Instant due) {
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

  /**
   * Fenced, a record that carries the owner of a recovery task's lease must still hold it; one that
   * carries none (the create's response, a webhook: observers without a lease) goes by the CAS.
   */
  private boolean leaseHolds(String writerToken) {
    return switch (fencing) {
      case NONE -> true;
      case LEASE -> writerToken == null || Objects.equals(writerToken, taskOwner());
    };
  }

  private static String cut(String code) {
    return code == null || code.length() <= CODE_MAX ? code : code.substring(0, CODE_MAX);
  }
}
