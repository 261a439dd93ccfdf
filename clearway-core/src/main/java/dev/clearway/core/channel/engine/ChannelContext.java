package dev.clearway.core.channel.engine;

import dev.clearway.core.channel.port.AdapterRegistry;
import dev.clearway.core.channel.port.CallBudget;
import dev.clearway.core.channel.port.ChannelEvents;
import dev.clearway.core.channel.port.ChannelHealth;
import dev.clearway.core.channel.port.ChannelStores;
import dev.clearway.core.channel.port.RecoveryPolicies;
import dev.clearway.core.flow.port.WakeupScheduler;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What every part of the channel layer shares.
 *
 * @param limiter the calls per second of each account ({@link PacedRateLimiter} in-process, or a
 *     budget shared by all nodes)
 * @param onAttemptFinal told the trade order number when an attempt becomes final, so the flow
 *     above can be woken instead of waiting for its scanner
 * @param createGrace how long after a create's start its task falls due if no answer was recorded
 *     (the call's own timeout plus a margin)
 * @param taskWakeups told of every recovery task left for later (rescheduled after a run, or handed
 *     back), by attempt id and due time; the recovery worker's claim rounds remain the safety net
 *     ({@link WakeupScheduler#NONE}: rounds only)
 */
public record ChannelContext(
    ChannelStores stores,
    AdapterRegistry adapters,
    ChannelHealth health,
    RecoveryPolicies policies,
    CallBudget limiter,
    ChannelEvents events,
    Clock clock,
    Consumer<String> onAttemptFinal,
    Duration createGrace,
    WakeupScheduler taskWakeups) {

  /** Recovery tasks found by the recovery worker's claim rounds only. */
  public ChannelContext(
      ChannelStores stores,
      AdapterRegistry adapters,
      ChannelHealth health,
      RecoveryPolicies policies,
      CallBudget limiter,
      ChannelEvents events,
      Clock clock,
      Consumer<String> onAttemptFinal,
      Duration createGrace) {
    this(
        stores,
        adapters,
        health,
        policies,
        limiter,
        events,
        clock,
        onAttemptFinal,
        createGrace,
        WakeupScheduler.NONE);
  }

  public ChannelContext {
    Objects.requireNonNull(stores, "stores");
    Objects.requireNonNull(adapters, "adapters");
    Objects.requireNonNull(health, "health");
    Objects.requireNonNull(policies, "policies");
    Objects.requireNonNull(limiter, "limiter");
    Objects.requireNonNull(events, "events");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(onAttemptFinal, "onAttemptFinal");
    Objects.requireNonNull(createGrace, "createGrace");
    Objects.requireNonNull(taskWakeups, "taskWakeups");
  }
}
