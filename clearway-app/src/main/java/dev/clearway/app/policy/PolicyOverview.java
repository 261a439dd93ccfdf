package dev.clearway.app.policy;

import dev.clearway.core.channel.policy.RolloutState;
import dev.clearway.store.channel.JdbcPolicyVersions;
import java.util.List;

/** Which versions new recovery tasks pin now, and every stored version with its status. */
public record PolicyOverview(RolloutState rollout, List<JdbcPolicyVersions.Summary> versions) {}
