package dev.clearway.core.channel.domain;

import dev.clearway.core.channel.spi.ResultCertainty;

/**
 * The state of one attempt. Non-terminal states:
 *
 * <ul>
 *   <li>{@link #CREATED}: inserted before the create call, with its recovery task. Found by the
 *       recovery worker when the task falls due (the response path normally resolves it first);
 *       decided by the next provider evidence; backoff from the task's pinned policy; exit:
 *       SUCCEEDED/FAILED, or the task goes MANUAL after max unknown age.
 *   <li>{@link #PENDING} and {@link #UNKNOWN}: the same four answers. An UNKNOWN attempt is only
 *       ever recovered on its own channel account; it never fails over.
 * </ul>
 */
public enum AttemptStatus {
  CREATED,
  PENDING,
  UNKNOWN,
  SUCCEEDED,
  FAILED;

  public boolean isFinal() {
    return switch (this) {
      case SUCCEEDED, FAILED -> true;
      case CREATED, PENDING, UNKNOWN -> false;
    };
  }

  /** The status an outcome of this certainty leads to. */
  public static AttemptStatus of(ResultCertainty certainty) {
    return switch (certainty) {
      case CONFIRMED_SUCCESS -> SUCCEEDED;
      case DEFINITE_FAILURE, NO_SIDE_EFFECT -> FAILED;
      case PENDING -> PENDING;
      case UNKNOWN -> UNKNOWN;
    };
  }
}
