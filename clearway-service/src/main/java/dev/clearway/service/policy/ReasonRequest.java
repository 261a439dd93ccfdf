package dev.clearway.service.policy;

/** Why a rollout is paused or rolled back; required, kept in the audit trail. */
public record ReasonRequest(String reason) {}
