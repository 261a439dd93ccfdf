package dev.clearway.sim;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.fact.BizCallResult;
import dev.clearway.core.flow.fact.BizFact;
import dev.clearway.core.flow.port.BusinessGateway;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The business service of the renewal example: a renewal task per goal that is granted at most
 * once, atomically with the order number it is attributed to (resume_order_no), and never after the
 * goal's deadline. Keeps a ledger of every grant.
 */
public final class SimBusiness implements BusinessGateway {
  private static final BusinessFault[] FAULTS = {
    BusinessFault.RESPONSE_LOST,
    BusinessFault.NEVER_COMPLETES,
    BusinessFault.COMPLETES_LATER,
    BusinessFault.UNAVAILABLE,
    BusinessFault.FACT_UNREADABLE,
    BusinessFault.CRASH_AFTER_GRANT
  };

  private final FaultPlan faults;
  private final Clock clock;
  private final Map<String, Task> tasks = new ConcurrentHashMap<>();
  private final List<GrantEntry> grants = new ArrayList<>();

  public SimBusiness(FaultPlan faults, Clock clock) {
    this.faults = faults;
    this.clock = clock;
  }

  private static final class Task {
    final GoalKey goal;
    String resumeOrderNo;
    boolean done;

    /** A grant accepted but committed later (COMPLETES_LATER). */
    String pendingOrderNo;

    Instant pendingAt;
    Instant pendingDeadline;
    int factReads;
    int failedCalls;

    Task(GoalKey goal) {
      this.goal = goal;
    }
  }

  public BusinessFault fault(String tradeOrderNo) {
    return faults.pick("business", tradeOrderNo, BusinessFault.NONE, FAULTS);
  }

  @Override
  public BizCallResult fulfil(GoalKey goal, String tradeOrderNo, Instant deadline) {
    Task task = task(goal);
    BusinessFault fault = fault(tradeOrderNo);
    synchronized (task) {
      settlePending(task);
      if (task.done) {
        return BizCallResult.ALREADY_DONE;
      }
      if (!clock.instant().isBefore(deadline)) {
        return BizCallResult.REJECTED;
      }
      switch (fault) {
        case NEVER_COMPLETES:
          return BizCallResult.ACCEPTED;
        case UNAVAILABLE:
          if (task.failedCalls++ < 2) {
            return BizCallResult.UNKNOWN;
          }
          break;
        case COMPLETES_LATER:
          if (task.pendingOrderNo == null) {
            task.pendingOrderNo = tradeOrderNo;
            task.pendingDeadline = deadline;
            task.pendingAt =
                clock
                    .instant()
                    .plus(
                        faults.duration(
                            "business.later",
                            tradeOrderNo,
                            Duration.ofMillis(20),
                            Duration.ofMillis(1_500)));
          }
          return BizCallResult.ACCEPTED;
        default:
          break;
      }
      grant(task, tradeOrderNo);
      if (fault == BusinessFault.RESPONSE_LOST) {
        return BizCallResult.UNKNOWN;
      }
      if (fault == BusinessFault.CRASH_AFTER_GRANT) {
        throw new SimulatedCrash("grant " + tradeOrderNo);
      }
      return BizCallResult.ACCEPTED;
    }
  }

  @Override
  public BizFact readFact(GoalKey goal) {
    Task task = task(goal);
    synchronized (task) {
      settlePending(task);
      task.factReads++;
      String probe = task.pendingOrderNo != null ? task.pendingOrderNo : task.resumeOrderNo;
      if (probe != null
          && fault(probe) == BusinessFault.FACT_UNREADABLE
          && task.factReads <= 1 + faults.below("business.unreadable", probe, 0, 3)) {
        return BizFact.unreadable("BIZ_HTTP_503");
      }
      return task.done ? BizFact.done(task.resumeOrderNo) : BizFact.notDone();
    }
  }

  /**
   * The goal's fact as the business's store holds it, with no fault and without counting as a read:
   * what a fulfilment answers after it ran.
   */
  public BizFact currentFact(GoalKey goal) {
    Task task = task(goal);
    synchronized (task) {
      settlePending(task);
      return task.done ? BizFact.done(task.resumeOrderNo) : BizFact.notDone();
    }
  }

  /**
   * Grants the goal to an order outside this engine (an older attempt, a legacy path): this
   * engine's attempt must then refund, never claim the success.
   */
  public void grantElsewhere(GoalKey goal, String foreignOrderNo) {
    Task task = task(goal);
    synchronized (task) {
      if (!task.done) {
        grant(task, foreignOrderNo);
      }
    }
  }

  /** Every grant committed so far, in commit order. */
  public List<GrantEntry> grants() {
    synchronized (grants) {
      return List.copyOf(grants);
    }
  }

  public static String goalId(GoalKey goal) {
    return goal.merchant() + "/" + goal.userId() + "/" + goal.scene() + "/" + goal.bizKey();
  }

  private Task task(GoalKey goal) {
    return tasks.computeIfAbsent(goalId(goal), k -> new Task(goal));
  }

  /** A grant accepted earlier commits at its time, and only if that time is before the deadline. */
  private void settlePending(Task task) {
    if (task.pendingOrderNo == null || task.done) {
      return;
    }
    if (!clock.instant().isBefore(task.pendingAt)) {
      if (task.pendingAt.isBefore(task.pendingDeadline)) {
        grant(task, task.pendingOrderNo);
      }
      task.pendingOrderNo = null;
    }
  }

  private void grant(Task task, String orderNo) {
    task.done = true;
    task.resumeOrderNo = orderNo;
    synchronized (grants) {
      grants.add(new GrantEntry(task.goal, orderNo, clock.instant()));
    }
  }
}
