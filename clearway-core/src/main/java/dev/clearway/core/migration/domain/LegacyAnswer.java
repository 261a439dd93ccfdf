package dev.clearway.core.migration.domain;

import java.util.Objects;

/** What one legacy probe (the in-flight markers, the legacy payment store) says about a goal. */
public sealed interface LegacyAnswer {

  /** The legacy path has nothing in flight for the goal. */
  record Clear() implements LegacyAnswer {}

  /**
   * The legacy path has a payment of the goal that Clearway must not pay over.
   *
   * @param reference the legacy path's own reference of that payment (order number, marker value)
   */
  record InFlight(String reference) implements LegacyAnswer {
    public InFlight {
      Objects.requireNonNull(reference, "reference");
    }
  }

  /**
   * The probe could not answer (its store unreachable, too slow, an unreadable answer): nothing may
   * be decided on it.
   *
   * @param why a short cause, without secrets, for logs and the error message
   */
  record Unknown(String why) implements LegacyAnswer {}

  static LegacyAnswer clear() {
    return new Clear();
  }

  static LegacyAnswer inFlight(String reference) {
    return new InFlight(reference);
  }

  static LegacyAnswer unknown(String why) {
    return new Unknown(why);
  }
}
