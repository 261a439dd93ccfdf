package dev.clearway.service.policy;

import dev.clearway.core.channel.policy.RolloutState;
import dev.clearway.service.api.Page;
import dev.clearway.store.channel.JdbcPolicyVersions;

/**
 * Which versions new recovery tasks pin now, and a page of the stored versions with their status,
 * newest created first.
 */
public record PolicyOverview(RolloutState rollout, Page<JdbcPolicyVersions.Summary> versions) {}
