package dev.clearway.core.flow.domain;

import static dev.clearway.core.flow.domain.FlowStatus.BIZ_SUCCESS;
import static dev.clearway.core.flow.domain.FlowStatus.CLOSED;
import static dev.clearway.core.flow.domain.FlowStatus.PAYED;
import static dev.clearway.core.flow.domain.FlowStatus.PAYING;
import static dev.clearway.core.flow.domain.FlowStatus.PAY_FAIL;
import static dev.clearway.core.flow.domain.FlowStatus.REFUNDED;
import static dev.clearway.core.flow.domain.FlowStatus.REFUNDING;
import static dev.clearway.core.flow.domain.FlowStatus.WAIT_PAY;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The one table of legal transitions. Everything not listed here is rejected, by the store before
 * it writes and by the chaos verifier when it reads the history back.
 */
public final class Transitions {
  private static final Map<FlowStatus, Set<FlowStatus>> LEGAL = new EnumMap<>(FlowStatus.class);

  /** For each state, every state reachable from it by one or more legal edges. */
  private static final Map<FlowStatus, Set<FlowStatus>> LATER = new EnumMap<>(FlowStatus.class);

  static {
    LEGAL.put(WAIT_PAY, EnumSet.of(PAYING, CLOSED));
    LEGAL.put(PAYING, EnumSet.of(PAYED, PAY_FAIL));
    LEGAL.put(PAYED, EnumSet.of(BIZ_SUCCESS, REFUNDING));
    LEGAL.put(REFUNDING, EnumSet.of(REFUNDED));
    for (FlowStatus s : FlowStatus.values()) {
      LEGAL.putIfAbsent(s, EnumSet.noneOf(FlowStatus.class));
    }
    for (FlowStatus s : FlowStatus.values()) {
      LATER.put(s, reachableFrom(s));
    }
  }

  private Transitions() {}

  public static boolean isLegal(FlowStatus from, FlowStatus to) {
    return LEGAL.get(from).contains(to);
  }

  public static Set<FlowStatus> targetsOf(FlowStatus from) {
    return Collections.unmodifiableSet(LEGAL.get(from));
  }

  /** Throws unless {@code from -> to} is in the table. */
  public static void requireLegal(FlowStatus from, FlowStatus to) {
    if (!isLegal(from, to)) {
      throw new IllegalTransitionException(from, to);
    }
  }

  /**
   * True when {@code current} equals {@code target} or lies after it on a legal path: a step that
   * meant to reach {@code target} and found {@code current} ends idempotently.
   */
  public static boolean isSameOrLater(FlowStatus target, FlowStatus current) {
    return target == current || LATER.get(target).contains(current);
  }

  private static Set<FlowStatus> reachableFrom(FlowStatus start) {
    Set<FlowStatus> seen = EnumSet.noneOf(FlowStatus.class);
    ArrayDeque<FlowStatus> todo = new ArrayDeque<>(LEGAL.get(start));
    while (!todo.isEmpty()) {
      FlowStatus s = todo.poll();
      if (seen.add(s)) {
        todo.addAll(LEGAL.get(s));
      }
    }
    return seen;
  }
}
