package dev.clearway.core.latecharge.domain;

import static dev.clearway.core.latecharge.domain.LateChargeStatus.CHARGE_CONFIRMED;
import static dev.clearway.core.latecharge.domain.LateChargeStatus.MANUAL;
import static dev.clearway.core.latecharge.domain.LateChargeStatus.NOT_APPLICABLE;
import static dev.clearway.core.latecharge.domain.LateChargeStatus.NO_CHARGE;
import static dev.clearway.core.latecharge.domain.LateChargeStatus.PENDING;
import static dev.clearway.core.latecharge.domain.LateChargeStatus.REFUND_REQUESTED;

import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The one table of legal late-charge check transitions; the guard trigger of late_charge_check
 * holds the same table against scripts and bugs. A terminal state has no edge out.
 */
public final class LateChargeTransitions {
  private static final Map<LateChargeStatus, Set<LateChargeStatus>> LEGAL =
      new EnumMap<>(LateChargeStatus.class);

  static {
    LEGAL.put(PENDING, EnumSet.of(CHARGE_CONFIRMED, NO_CHARGE, MANUAL, NOT_APPLICABLE));
    LEGAL.put(MANUAL, EnumSet.of(CHARGE_CONFIRMED, NO_CHARGE, NOT_APPLICABLE));
    LEGAL.put(CHARGE_CONFIRMED, EnumSet.of(REFUND_REQUESTED, MANUAL, NOT_APPLICABLE));
    for (LateChargeStatus s : LateChargeStatus.values()) {
      LEGAL.putIfAbsent(s, EnumSet.noneOf(LateChargeStatus.class));
    }
  }

  private LateChargeTransitions() {}

  public static boolean isLegal(LateChargeStatus from, LateChargeStatus to) {
    return LEGAL.get(from).contains(to);
  }

  public static Set<LateChargeStatus> targetsOf(LateChargeStatus from) {
    return Collections.unmodifiableSet(LEGAL.get(from));
  }

  /** Throws unless {@code from -> to} is in the table. */
  public static void requireLegal(LateChargeStatus from, LateChargeStatus to) {
    if (!isLegal(from, to)) {
      throw new IllegalStateException("illegal late-charge transition " + from + " -> " + to);
    }
  }
}
