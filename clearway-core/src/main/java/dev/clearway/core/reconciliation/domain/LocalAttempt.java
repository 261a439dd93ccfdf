package dev.clearway.core.reconciliation.domain;

import dev.clearway.core.channel.domain.AttemptStatus;
import java.util.Objects;

/** The channel attempt a flow was paid through, as stored. */
public record LocalAttempt(long id, String attemptKey, AttemptStatus status, long version) {

  public LocalAttempt {
    Objects.requireNonNull(attemptKey, "attemptKey");
    Objects.requireNonNull(status, "status");
  }
}
