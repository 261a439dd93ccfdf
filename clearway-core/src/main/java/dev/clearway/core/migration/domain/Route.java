package dev.clearway.core.migration.domain;

import java.util.Objects;

/** Where a goal's payment, query and cancel go: one decision for all three. */
public sealed interface Route {

  /** Clearway serves the goal: an attempt may be created (or the live one answered). */
  record Clearway() implements Route {}

  /**
   * The legacy path serves the goal.
   *
   * @param reason why
   * @param reference the legacy payment's reference when a probe found one, else null
   */
  record Legacy(HandBack reason, String reference) implements Route {
    public Legacy {
      Objects.requireNonNull(reason, "reason");
    }
  }

  /**
   * A probe could not answer: nothing is created; the caller retries later.
   *
   * @param probe which probe ({@code markers} or {@code legacy_store})
   * @param why its cause
   */
  record Unknown(String probe, String why) implements Route {}
}
