package dev.clearway.service.policy;

import dev.clearway.core.channel.policy.PolicyRecord;
import dev.clearway.service.api.Page;
import dev.clearway.store.channel.JdbcPolicyVersions;

/** One stored version and a page of its audit trail (who did what, when and why), newest first. */
public record PolicyDetail(PolicyRecord policy, Page<JdbcPolicyVersions.AuditEvent> audit) {}
