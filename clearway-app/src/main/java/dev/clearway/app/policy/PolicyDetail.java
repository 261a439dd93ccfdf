package dev.clearway.app.policy;

import dev.clearway.core.channel.policy.PolicyEvent;
import dev.clearway.core.channel.policy.PolicyRecord;
import java.util.List;

/** One stored version and its audit trail (who did what, when and why), oldest first. */
public record PolicyDetail(PolicyRecord policy, List<PolicyEvent> audit) {}
