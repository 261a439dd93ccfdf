package dev.clearway.sim;

import dev.clearway.core.flow.domain.GoalKey;
import java.time.Instant;

/** One grant the simulated business service actually committed. */
public record GrantEntry(GoalKey goal, String attributedOrderNo, Instant at) {}
