package dev.clearway.core.flow.domain;

import java.time.Instant;
import java.util.Objects;

/** What a caller asks for: amount, currency and deadline are frozen on the row at creation. */
public record NewPayment(GoalKey goal, long amount, String currency, Instant bizDeadline) {
  public NewPayment {
    Objects.requireNonNull(goal, "goal");
    Objects.requireNonNull(currency, "currency");
    Objects.requireNonNull(bizDeadline, "bizDeadline");
    if (amount <= 0) {
      throw new IllegalArgumentException("amount must be positive minor units");
    }
  }
}
