package dev.clearway.service.testkit;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.fact.BizCallResult;
import dev.clearway.core.flow.fact.BizFact;
import dev.clearway.core.flow.port.BusinessGateway;
import dev.clearway.sim.GrantEntry;
import dev.clearway.sim.SimulatedCrash;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The business service with scripted behaviour: one task per goal, granted at most once and
 * atomically with the order it is attributed to (resume_order_no), never at or after the deadline
 * the call carries (checked against the clock at call time). Keeps a ledger of grants (the {@link
 * GrantEntry} of clearway-sim).
 *
 * <p>Fulfil scripts are queued per trade order; each call consumes one step and the last step
 * repeats, so {@code NEVER} stays never and {@code UNAVAILABLE, GRANT} fails once then grants. No
 * script means {@link Fulfil#GRANT}.
 */
public final class ScriptedBusiness implements BusinessGateway {

  public enum Fulfil {
    /** Grant now (if the goal is open and the deadline ahead) and answer ACCEPTED. */
    GRANT,
    /** Grant now, lose the response: UNKNOWN. */
    RESPONSE_LOST,
    /** Accept and never do anything. */
    NEVER,
    /**
     * Accept; the grant commits at the instant given by {@link #scriptLater}, if before the
     * deadline.
     */
    LATER,
    /** 5xx, nothing done. */
    UNAVAILABLE,
    /** Grant now, then the calling worker dies ({@link SimulatedCrash}). */
    CRASH_AFTER_GRANT
  }

  /** One fulfil call as the service received it, with its answer (null when it threw). */
  public record FulfilCall(
      String tradeOrderNo, Instant at, Instant deadline, BizCallResult answer) {}

  private static final class Task {
    final GoalKey goal;
    boolean done;
    String resumeOrderNo;
    String pendingOrderNo;
    Instant pendingAt;
    Instant pendingDeadline;
    int unreadable;

    Task(GoalKey goal) {
      this.goal = goal;
    }
  }

  private final Clock clock;
  private final Map<GoalKey, Task> tasks = new HashMap<>();
  private final Map<String, Deque<Fulfil>> scripts = new HashMap<>();
  private final Map<String, Instant> laterAt = new HashMap<>();
  private final List<GrantEntry> grants = new ArrayList<>();
  private final List<FulfilCall> fulfilCalls = new ArrayList<>();
  private Consumer<GoalKey> duringNextCall;
  private int factReads;

  public ScriptedBusiness(Clock clock) {
    this.clock = clock;
  }

  // ---- scripting ------------------------------------------------------------------------------

  public synchronized ScriptedBusiness script(String tradeOrderNo, Fulfil... perCall) {
    scripts.computeIfAbsent(tradeOrderNo, k -> new ArrayDeque<>()).addAll(Arrays.asList(perCall));
    return this;
  }

  /**
   * The order's calls accept, and the grant commits at {@code at} (only if before the deadline).
   */
  public synchronized ScriptedBusiness scriptLater(String tradeOrderNo, Instant at) {
    laterAt(tradeOrderNo, at);
    return script(tradeOrderNo, Fulfil.LATER);
  }

  /** When a {@link Fulfil#LATER} step of this order commits (default: at the call). */
  public synchronized ScriptedBusiness laterAt(String tradeOrderNo, Instant at) {
    laterAt.put(tradeOrderNo, at);
    return this;
  }

  /**
   * The next {@code times} fact reads of the goal fail (Integer.MAX_VALUE: until told otherwise).
   */
  public synchronized void unreadableFacts(GoalKey goal, int times) {
    task(goal).unreadable = times;
  }

  /**
   * Runs {@code hook} (with the goal) inside the next fulfil or fact read, after the service acted
   * and before the caller sees the answer. Once.
   */
  public synchronized void duringNextCall(Consumer<GoalKey> hook) {
    this.duringNextCall = hook;
  }

  /**
   * Another order (an older attempt, a legacy path) completes the goal, whatever the deadline.
   * Returns false if the goal was already done.
   */
  public synchronized boolean grantForeign(GoalKey goal, String foreignOrderNo) {
    Task task = task(goal);
    settle(task);
    if (task.done) {
      return false;
    }
    grant(task, foreignOrderNo, clock.instant());
    return true;
  }

  /** A broken writer marks the goal done without attribution: contradictory facts. */
  public synchronized void completeWithoutAttribution(GoalKey goal) {
    Task task = task(goal);
    settle(task);
    if (!task.done) {
      grant(task, null, clock.instant());
    }
  }

  // ---- the service ----------------------------------------------------------------------------

  @Override
  public synchronized BizCallResult fulfil(GoalKey goal, String tradeOrderNo, Instant deadline) {
    return during(goal, () -> doFulfil(goal, tradeOrderNo, deadline));
  }

  private BizCallResult doFulfil(GoalKey goal, String tradeOrderNo, Instant deadline) {
    Instant now = clock.instant();
    Deque<Fulfil> script = scripts.get(tradeOrderNo);
    Fulfil step =
        script == null || script.isEmpty()
            ? Fulfil.GRANT
            : script.size() > 1 ? script.poll() : script.peek();
    Task task = task(goal);
    settle(task);
    BizCallResult answer;
    if (task.done) {
      answer = BizCallResult.ALREADY_DONE;
    } else if (!now.isBefore(deadline)) {
      answer = BizCallResult.REJECTED;
    } else {
      answer =
          switch (step) {
            case NEVER -> BizCallResult.ACCEPTED;
            case UNAVAILABLE -> BizCallResult.UNKNOWN;
            case LATER -> {
              if (task.pendingOrderNo == null) {
                Instant at = laterAt.getOrDefault(tradeOrderNo, now);
                task.pendingOrderNo = tradeOrderNo;
                task.pendingAt = at.isBefore(now) ? now : at;
                task.pendingDeadline = deadline;
              }
              yield BizCallResult.ACCEPTED;
            }
            case GRANT, RESPONSE_LOST, CRASH_AFTER_GRANT -> {
              grant(task, tradeOrderNo, now);
              yield step == Fulfil.RESPONSE_LOST ? BizCallResult.UNKNOWN : BizCallResult.ACCEPTED;
            }
          };
      if (step == Fulfil.CRASH_AFTER_GRANT) {
        fulfilCalls.add(new FulfilCall(tradeOrderNo, now, deadline, null));
        throw new SimulatedCrash("grant " + tradeOrderNo);
      }
    }
    fulfilCalls.add(new FulfilCall(tradeOrderNo, now, deadline, answer));
    return answer;
  }

  @Override
  public synchronized BizFact readFact(GoalKey goal) {
    return during(goal, () -> doReadFact(goal));
  }

  private BizFact doReadFact(GoalKey goal) {
    factReads++;
    Task task = task(goal);
    settle(task);
    if (task.unreadable > 0) {
      if (task.unreadable != Integer.MAX_VALUE) {
        task.unreadable--;
      }
      return BizFact.unreadable("BIZ_HTTP_503");
    }
    return task.done ? BizFact.done(task.resumeOrderNo) : BizFact.notDone();
  }

  // ---- what the test reads --------------------------------------------------------------------

  public synchronized List<GrantEntry> grants() {
    return List.copyOf(grants);
  }

  /** The order the goal's completion is attributed to, if done (null attribution: empty). */
  public synchronized Optional<String> grantedTo(GoalKey goal) {
    Task task = tasks.get(goal);
    if (task == null) {
      return Optional.empty();
    }
    settle(task);
    return task.done ? Optional.ofNullable(task.resumeOrderNo) : Optional.empty();
  }

  /** Commits the LATER grants whose time has come (the service's own background). */
  public synchronized void settleAll() {
    tasks.values().forEach(this::settle);
  }

  public synchronized List<FulfilCall> fulfilCalls() {
    return List.copyOf(fulfilCalls);
  }

  public synchronized int factReads() {
    return factReads;
  }

  // ---- internals ------------------------------------------------------------------------------

  private <T> T during(GoalKey goal, Supplier<T> call) {
    T result;
    try {
      result = call.get();
    } finally {
      Consumer<GoalKey> hook = duringNextCall;
      duringNextCall = null;
      if (hook != null) {
        hook.accept(goal);
      }
    }
    return result;
  }

  private Task task(GoalKey goal) {
    return tasks.computeIfAbsent(goal, Task::new);
  }

  /** A LATER grant commits at its instant, and only if that instant is before the deadline. */
  private void settle(Task task) {
    if (task.pendingOrderNo == null || clock.instant().isBefore(task.pendingAt)) {
      return;
    }
    if (!task.done && task.pendingAt.isBefore(task.pendingDeadline)) {
      grant(task, task.pendingOrderNo, task.pendingAt);
    }
    task.pendingOrderNo = null;
  }

  private void grant(Task task, String orderNo, Instant at) {
    task.done = true;
    task.resumeOrderNo = orderNo;
    grants.add(new GrantEntry(task.goal, orderNo, at));
  }
}
