package dev.clearway.core.channel.policy;

import java.time.Instant;
import java.util.Objects;

/**
 * One append-only audit entry: who ({@code actor}) did what ({@code action} on {@code version}),
 * when ({@code at}) and why ({@code reason}, may be null); {@code detail} says what moved, such as
 * {@code percent=10} or {@code previous=v1}.
 */
public record PolicyEvent(
    String version, PolicyAction action, String actor, String reason, Instant at, String detail) {

  public PolicyEvent {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(actor, "actor");
    Objects.requireNonNull(at, "at");
  }
}
