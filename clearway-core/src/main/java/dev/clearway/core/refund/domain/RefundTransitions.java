package dev.clearway.core.refund.domain;

import static dev.clearway.core.refund.domain.RefundStatus.ABNORMAL;
import static dev.clearway.core.refund.domain.RefundStatus.CLOSED;
import static dev.clearway.core.refund.domain.RefundStatus.FAIL;
import static dev.clearway.core.refund.domain.RefundStatus.PENDING;
import static dev.clearway.core.refund.domain.RefundStatus.PROCESSING;
import static dev.clearway.core.refund.domain.RefundStatus.SUCCESS;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The one table of legal refund transitions; the guard trigger of refund_order holds the same table
 * against scripts and bugs. There is no edge back to PENDING: an unanswered call stays PROCESSING
 * and is queried by the same number, which is what makes a lost response safe.
 */
public final class RefundTransitions {
  private static final Map<RefundStatus, Set<RefundStatus>> LEGAL =
      new EnumMap<>(RefundStatus.class);
  private static final Map<RefundStatus, Set<RefundStatus>> LATER =
      new EnumMap<>(RefundStatus.class);

  static {
    LEGAL.put(PENDING, EnumSet.of(PROCESSING, CLOSED));
    LEGAL.put(PROCESSING, EnumSet.of(SUCCESS, FAIL, ABNORMAL));
    LEGAL.put(ABNORMAL, EnumSet.of(SUCCESS, FAIL));
    for (RefundStatus s : RefundStatus.values()) {
      LEGAL.putIfAbsent(s, EnumSet.noneOf(RefundStatus.class));
    }
    for (RefundStatus s : RefundStatus.values()) {
      LATER.put(s, reachableFrom(s));
    }
  }

  private RefundTransitions() {}

  public static boolean isLegal(RefundStatus from, RefundStatus to) {
    return LEGAL.get(from).contains(to);
  }

  public static Set<RefundStatus> targetsOf(RefundStatus from) {
    return Collections.unmodifiableSet(LEGAL.get(from));
  }

  /** Throws unless {@code from -> to} is in the table. */
  public static void requireLegal(RefundStatus from, RefundStatus to) {
    if (!isLegal(from, to)) {
      throw new IllegalStateException("illegal refund transition " + from + " -> " + to);
    }
  }

  /**
   * True when {@code current} equals {@code target} or lies after it on a legal path: a step that
   * meant to reach {@code target} and found {@code current} ends idempotently.
   */
  public static boolean isSameOrLater(RefundStatus target, RefundStatus current) {
    return target == current || LATER.get(target).contains(current);
  }

  private static Set<RefundStatus> reachableFrom(RefundStatus start) {
    Set<RefundStatus> seen = EnumSet.noneOf(RefundStatus.class);
    ArrayDeque<RefundStatus> todo = new ArrayDeque<>(LEGAL.get(start));
    while (!todo.isEmpty()) {
      RefundStatus s = todo.poll();
      if (seen.add(s)) {
        todo.addAll(LEGAL.get(s));
      }
    }
    return seen;
  }
}
