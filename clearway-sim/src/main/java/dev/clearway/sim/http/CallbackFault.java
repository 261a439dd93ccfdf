package dev.clearway.sim.http;

import dev.clearway.sim.FaultPlan;

/**
 * Faults of the callback path, picked per event from the wallet's {@link FaultPlan}, keyed by event
 * type and order number: replayable from the seed whatever the order in which events occur.
 */
public enum CallbackFault {
  NONE,
  /** Delivered twice, same event id and body. */
  DUPLICATE,
  /** Delivered late (hundreds of milliseconds to a few seconds). */
  DELAYED,
  /** Held back until the next event has been delivered (or a short while passed). */
  OUT_OF_ORDER;

  private static final CallbackFault[] FAULTS = {DUPLICATE, DELAYED, OUT_OF_ORDER};

  public static CallbackFault pick(FaultPlan faults, String type, String orderNo) {
    return faults.pick("callback", type + ":" + orderNo, NONE, FAULTS);
  }
}
